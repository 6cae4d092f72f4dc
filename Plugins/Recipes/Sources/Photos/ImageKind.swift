import Foundation

/// The image formats a recipe photo may have, recognised by their first bytes.
public enum ImageKind: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp, heic

    /// The MIME type sent as `Content-Type`.
    public var contentType: String { "image/\(rawValue)" }

    /// The file extension photos of this kind are stored with.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// The kind of `data`, or nil when it is none of the known image formats.
    public static func sniff(_ data: Data) -> ImageKind? {
        let bytes = [UInt8](data.prefix(12))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF8".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("ftyp".utf8), at: 4) { return .heic }
        return nil
    }

    /// The kind a `Content-Type` names, if known.
    public init?(contentType: String) {
        let type =
            contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch type {
        case "image/png": self = .png
        case "image/jpeg", "image/jpg": self = .jpeg
        case "image/gif": self = .gif
        case "image/webp": self = .webp
        case "image/heic", "image/heif": self = .heic
        default: return nil
        }
    }
}
