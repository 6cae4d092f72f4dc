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
            var movie = try Conditional.require(
                request,
                db,
                MovieRoutes.collection,
                scope: user.scope,
                id: id,
                code: "movie_not_found"
            )
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

    /// Whether `text` is a calendar date `YYYY-MM-DD` that exists (no 30 February; 29 February
    /// only in leap years of the Gregorian calendar).
    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month)
        else { return false }
        return (1...daysIn(month: month, year: year)).contains(day)
    }

    /// The number of days in `month` (1...12) of `year`.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
