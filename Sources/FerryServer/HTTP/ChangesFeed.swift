/// `GET /v1/<collection>/changes?since=<cursor>&limit=N` for any entity collection.
enum ChangesFeed {
    static let defaultLimit = 100
    static let maxLimit = 1000

    /// A handler serving the changes of `collection` in the scope `scope(request)`.
    static func handler(_ collection: String, scope: @escaping @Sendable (APIRequest) throws -> String) -> RouteHandler
    {
        handler([collection]) { request, _ in try scope(request) }
    }

    /// A handler serving the changes of several collections in the scope `scope(request, env)`.
    static func handler(
        _ collections: [String],
        scope: @escaping @Sendable (APIRequest, ServerEnvironment) async throws -> String
    ) -> RouteHandler {
        { request, env in
            let scope = try await scope(request, env)
            let since: Int
            if let raw = request.query["since"], !raw.isEmpty {
                guard let value = Int(raw), value >= 0, String(value) == raw else { throw invalidCursor(raw) }
                since = value
            } else {
                since = 0
            }
            var limit = defaultLimit
            if let raw = request.query["limit"] {
                guard let value = Int(raw), (1...maxLimit).contains(value) else {
                    throw APIError.badRequest("invalid_limit", "limit must be an integer within 1...\(maxLimit).")
                }
                limit = value
            }
            let pageSize = limit
            let page = try await env.database.read { db in
                guard try Entities.isIssued(since, db) else { throw invalidCursor(String(since)) }
                return try Entities.changes(db, collections, scope: scope, since: since, limit: pageSize)
            }
            return .json([
                "changes": .array(page.changes), "cursor": .string(String(page.cursor)),
                "has_more": .bool(page.hasMore),
            ])
        }
    }

    /// 400 `invalid_cursor`: a cursor that does not parse, or is beyond any this server issued.
    private static func invalidCursor(_ raw: String) -> APIError {
        APIError.badRequest("invalid_cursor", "The cursor '\(raw.prefix(64))' is not one this server issued.")
    }
}
