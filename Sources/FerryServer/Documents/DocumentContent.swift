import Foundation

/// A document's own fields (what the client sends) and how they are stored: the server adds
/// `id`, `version`, `created_at` and `updated_at`.
enum DocumentContent {
    /// Keys the server manages; ignored when a client sends them (`id` must match the path).
    static let serverKeys: Set<String> = ["id", "version", "created_at", "updated_at"]

    /// The request body's fields without the server's keys: a 400 `invalid_body` when the
    /// body is not a JSON object, `id_mismatch` when its `id` is not `id`.
    static func fields(of request: APIRequest, id: String) throws(APIError) -> [String: JSON] {
        var object = try request.jsonObject()
        if let bodyID = object["id"], bodyID != .string(id) {
            throw APIError.badRequest("id_mismatch", "The body's id does not match the path's id '\(id)'.")
        }
        for key in serverKeys { object.removeValue(forKey: key) }
        return object
    }

    /// The client's fields of a stored document.
    static func fields(of document: JSON) -> [String: JSON] {
        (document.objectValue ?? [:]).filter { !serverKeys.contains($0.key) }
    }

    /// Stores `fields` as the document `id` and returns it. A write that leaves the fields
    /// as they are changes nothing and returns `current`; a document larger than `limit`
    /// bytes is a 413 `payload_too_large`.
    static func save(
        _ db: any SQLSession,
        _ space: DocumentSpace,
        id: String,
        fields: [String: JSON],
        current: JSON?,
        limit: Int,
        now: Date
    ) throws -> JSON {
        if let current, Self.fields(of: current) == fields { return current }
        var data = JSON.object(fields)
        guard data.encoded().count <= limit else {
            throw APIError(
                .contentTooLarge,
                "payload_too_large",
                "The document would exceed \(limit) bytes.",
                details: ["limit": .int(limit)]
            )
        }
        data["created_at"] = current?["created_at"] ?? .string(Timestamp.string(now))
        return try Entities.put(db, space.collection, scope: space.scope, id: id, data: data, now: now)
    }
}
