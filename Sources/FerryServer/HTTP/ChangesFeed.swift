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
            // The lowest and highest change numbers write answers gave the client since its last
            // pull (`Ferry-Change`): a restored server that forgot one of those writes did
            // not issue every number between them, and the client must pull again.
            var seen: ClosedRange<Int>?
            if let raw = request.query["seen"] {
                let numbers = raw.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
                guard (1...2).contains(numbers.count), numbers.allSatisfy({ $0.map { $0 >= 0 } ?? false }),
                    numbers.map({ String($0!) }).joined(separator: ",") == raw
                else {
                    throw APIError.badRequest(
                        "invalid_cursor",
                        "seen must be one or two change numbers as Ferry-Change gives them (first,last), not '\(raw.prefix(64))'."
                    )
                }
                let (first, last) = (numbers[0]!, numbers[numbers.count - 1]!)
                seen = min(first, last)...max(first, last)
            }
            let pageSize = limit
            let page = try await env.database.read { [seen] db in
                guard try Entities.isIssued(since, db) else { throw invalidCursor(String(since)) }
                if let seen, !(try Entities.holdsEvery(seen, db)) { throw unknownChanges(request.query["seen"] ?? "") }
                return try Entities.changes(db, collections, scope: scope, since: since, limit: pageSize)
            }
            return .json([
                "changes": .array(page.changes), "cursor": .string(String(page.cursor)),
                "has_more": .bool(page.hasMore),
            ])
        }
    }

    /// 400 `invalid_cursor` for `seen`: change numbers this server's data may not hold (it
    /// was restored from an older backup, or started between them).
    private static func unknownChanges(_ seen: String) -> APIError {
        APIError.badRequest(
            "invalid_cursor",
            "The changes '\(seen.prefix(64))' (seen) are not all ones this server's data holds: pull again from the start."
        )
    }

    /// 400 `invalid_cursor`: a cursor that does not parse, or is beyond any this server issued.
    private static func invalidCursor(_ raw: String) -> APIError {
        APIError.badRequest("invalid_cursor", "The cursor '\(raw.prefix(64))' is not one this server issued.")
    }
}
