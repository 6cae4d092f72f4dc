import Foundation

/// One recipe as `show` presents it.
public struct RecipeDetail: Sendable {
    public var recipe: Recipe
    public var saved: Bool
    public var pending: [String]
    public var failed: [String]
    /// The local photo's path, if a photo is stored.
    public var photoPath: String?

    /// The document with what only this client knows, under `local`, for `--json`.
    public func json() throws -> Data {
        var object = (try JSONSerialization.jsonObject(with: recipe.document) as? [String: Any]) ?? [:]
        var local: [String: Any] = [
            "saved": saved, "mine": recipe.mine, "on_server": recipe.version != nil, "pending": pending,
            "failed": failed,
        ]
        if let photoPath { local["photo_path"] = photoPath }
        object["local"] = local
        return try JSONSerialization.data(
            withJSONObject: object,
            options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        )
    }
}
