import Foundation

/// What an `upload` operation carries: the document, and the photo stored beside it.
struct UploadPayload: Codable, Sendable {
    /// The recipe document as JSON text.
    var document: String
    /// The photo's file name in the plugin's photo folder, if the recipe has one.
    var photoFile: String?
    var photoType: String?
}
