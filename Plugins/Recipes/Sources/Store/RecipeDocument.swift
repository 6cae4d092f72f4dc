import Foundation
import SyncKernel

/// A recipe document: a free-form JSON object with at least a non-empty `title`.
///
/// Documents a person wrote are checked here (`init(userJSON:...)`); documents the
/// remote sent are read with `init(remote:)`.
public struct RecipeDocument: Sendable {
    public let id: String
    public let title: String
    /// The object as JSON, keys sorted.
    public let data: Data
    public let version: Int?
    public let photoSHA256: String?
    public let photoType: String?

    /// The largest document accepted (the remote refuses JSON bodies over 1 MiB).
    public static let maxBytes = 1 << 20

    /// Keys the remote manages; dropped from documents a person wrote.
    static let serverKeys: Set<String> = ["version", "updated_at", "created_at", "owner_id", "photo"]

    /// Checks a document a person wrote. `source` names it in errors. The id is the
    /// document's own `id` when it has one, else `fallbackID`, else a fresh one. A legacy
    /// document with `name` but no `title` takes its name as title.
    public init(userJSON data: Data, source: String, fallbackID: String? = nil) throws {
        guard data.count <= Self.maxBytes else {
            throw FerryError(.usage, "\(source) is \(data.count) bytes; a recipe must be at most 1 MiB of JSON")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw FerryError(
                .usage,
                "\(source) is not valid JSON; a recipe is a JSON object such as {\"title\": \"Soup\"}",
                underlying: error
            )
        }
        guard var object = parsed as? [String: Any] else {
            throw FerryError(
                .usage,
                "\(source) holds JSON but not an object; a recipe is a JSON object such as {\"title\": \"Soup\"}"
            )
        }
        if object["title"] == nil, let name = object["name"] as? String { object["title"] = name }
        guard let title = (object["title"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !title.isEmpty
        else {
            throw FerryError(.usage, "\(source) has no title; add a non-empty \"title\" string")
        }
        let id: String
        if let declared = object["id"] {
            guard let text = declared as? String, RecipeID.isValid(text) else {
                throw FerryError(
                    .usage,
                    "\(source): id \(String(describing: declared).prefix(64)) is not a valid recipe id; use 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit, or leave id out"
                )
            }
            id = text
        } else {
            id = fallbackID ?? RecipeID.make()
        }
        for key in Self.serverKeys { object.removeValue(forKey: key) }
        object["id"] = id
        object["title"] = title
        self.id = id
        self.title = title
        self.data = try SortedJSON.data(object, escapingSlashes: false)
        self.version = nil
        self.photoSHA256 = nil
        self.photoType = nil
    }

    /// Reads a recipe the remote sent.
    public init(remote data: Data) throws {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let id = object["id"] as? String, RecipeID.isValid(id)
        else {
            throw FerryError(.rejected, "the remote sent a recipe that is not a JSON object with a valid id")
        }
        self.id = id
        let title = (object["title"] as? String) ?? ""
        self.title = title.isEmpty ? id : title
        self.data = try SortedJSON.data(object, escapingSlashes: false)
        self.version = (object["version"] as? NSNumber)?.intValue
        let photo = object["photo"] as? [String: Any]
        self.photoSHA256 = photo?["sha256"] as? String
        self.photoType = photo?["content_type"] as? String
    }

    /// The fields people read, taken from a document; anything missing is empty.
    public struct Fields: Sendable, Encodable {
        public var title: String
        public var servings: Int?
        public var minutes: Int?
        public var ingredients: [String]
        public var steps: [String]
        public var ownerID: String?

        public init(_ document: Data) {
            let object = (try? JSONSerialization.jsonObject(with: document) as? [String: Any]) ?? [:]
            title = object["title"] as? String ?? ""
            servings = (object["servings"] as? NSNumber)?.intValue
            minutes = (object["minutes"] as? NSNumber)?.intValue
            ingredients = Self.strings(object["ingredients"])
            steps = Self.strings(object["steps"] ?? object["instructions"])
            ownerID = object["owner_id"] as? String
        }

        private static func strings(_ value: Any?) -> [String] {
            if let list = value as? [Any] {
                return list.map { item in
                    if let text = item as? String { return text }
                    if let object = item as? [String: Any], let name = object["name"] as? String {
                        return [object["quantity"] as? String, name].compactMap { $0 }.joined(separator: " ")
                    }
                    return String(describing: item)
                }
            }
            if let text = value as? String { return [text] }
            return []
        }
    }
}
