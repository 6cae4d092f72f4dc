import Foundation

/// One recipe as `show` presents it.
public struct RecipeDetail: Sendable {
    public var recipe: Recipe
    public var saved: Bool
    public var pending: [String]
    public var failed: [String]
    /// The local photo's path, if a photo is stored.
    public var photoPath: String?
}
