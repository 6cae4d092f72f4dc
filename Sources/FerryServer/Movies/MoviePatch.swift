import Foundation

/// `PATCH /v1/movies/{id}`: status, my_rating, date_watched, recommender; `If-Match` optional.
enum MoviePatch {
    static let fields: Set<String> = ["status", "my_rating", "date_watched", "recommender"]

    static func handle(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let user = try request.requireUser()
        let id = try Identifier.validated(request.parameter("id"))
        let changes = try validated(try request.jsonObject(allowing: fields))
        let now = env.now
        return try await env.database.commit(now: now) { db in
            var movie = try Entities.require(
                db,
                MovieRoutes.collection,
                scope: user.scope,
                id: id,
                code: "movie_not_found"
            )
            try Conditional.check(request, current: movie)
            for (key, value) in changes { movie[key] = value }
            let stored = try Entities.put(db, MovieRoutes.collection, scope: user.scope, id: id, data: movie, now: now)
            try People.recompute(db, scope: user.scope, now: now)
            return stored
        } answer: { movie in
            .entity(movie)
        }
    }

    /// Checks types and ranges of the editable fields; null clears a field (except status).
    static func validated(_ body: [String: JSON]) throws -> [String: JSON] {
        for (key, value) in body {
            switch key {
            case "status":
                guard let status = value.stringValue, MovieRoutes.statuses.contains(status) else {
                    throw APIError.invalidField(
                        "status",
                        "status must be one of \(MovieRoutes.statuses.sorted().joined(separator: ", "))."
                    )
                }
            case "my_rating":
                guard value.isNull || (value.intValue.map { (1...10).contains($0) } ?? false) else {
                    throw APIError.invalidField("my_rating", "my_rating must be an integer from 1 to 10, or null.")
                }
            case "date_watched":
                guard value.isNull || (value.stringValue.map(isDate) ?? false) else {
                    throw APIError.invalidField("date_watched", "date_watched must be a date like 2024-05-31, or null.")
                }
            case "recommender":
                guard value.isNull || (value.stringValue.map { !$0.isEmpty && $0.count <= 200 } ?? false) else {
                    throw APIError.invalidField(
                        "recommender",
                        "recommender must be a non-empty string (at most 200 characters), or null."
                    )
                }
            default:
                throw APIError.invalidField(key, "Field '\(key)' cannot be set.")
            }
        }
        return body
    }

    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let month = Int(parts[1]), let day = Int(parts[2]), Int(parts[0]) != nil
        else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }
}
