/// `If-Match` / `If-None-Match` handling for versioned entities (ETag = `"<version>"`).
enum Conditional {
    /// The version asked for by `If-Match`, nil when absent or `*`; a 400 when it is not
    /// one of `"<n>"`, `<n>` or `W/"<n>"` with `n` decimal digits.
    static func ifMatchVersion(_ request: APIRequest) throws(APIError) -> Int? {
        guard let raw = request.header("If-Match")?.trimmingCharacters(in: .whitespaces), raw != "*" else { return nil }
        guard let version = version(inTag: raw) else {
            throw APIError.badRequest(
                "invalid_if_match",
                "If-Match must be an ETag such as \"3\" (or 3, W/\"3\", *), not '\(raw.prefix(64))'."
            )
        }
        return version
    }

    /// The version an entity tag names: `"3"`, `3` or `W/"3"`; nil for anything else.
    static func version(inTag tag: String) -> Int? {
        var digits = Substring(tag)
        let isWeak = digits.hasPrefix("W/")
        if isWeak { digits = digits.dropFirst(2) }
        if digits.count >= 2, digits.first == "\"", digits.last == "\"" {
            digits = digits.dropFirst().dropLast()
        } else if isWeak {
            return nil
        }
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        // Too many digits for any version an entity will reach: a well-formed, stale tag.
        return Int(digits) ?? Int.max
    }

    /// Throws 412 with the current entity when `If-Match` names another version than `current`'s,
    /// or when `current` is nil (the entity is deleted or was never created) and `If-Match` is present.
    static func check(_ request: APIRequest, current: JSON?) throws(APIError) {
        if request.header("If-Match")?.trimmingCharacters(in: .whitespaces) == "*", current == nil {
            throw APIError(
                .preconditionFailed,
                "version_mismatch",
                "If-Match: * but the entity does not exist.",
                details: ["current": .null]
            )
        }
        guard let expected = try ifMatchVersion(request) else { return }
        guard let current, current["version"]?.intValue == expected else {
            throw APIError.preconditionFailed(current: current ?? .null, expected: expected)
        }
    }

    /// The live entity a conditional write changes, after checking `If-Match` against it.
    ///
    /// A missing entity (deleted, or never created) fails any `If-Match` with 412 and
    /// `details.current: null`; without `If-Match` it is a 404 with `code`.
    static func require(
        _ request: APIRequest,
        _ db: any SQLSession,
        _ collection: String,
        scope: String,
        id: String,
        code: String
    ) throws -> JSON {
        let current = try Entities.fetch(db, collection, scope: scope, id: id)
        try check(request, current: current)
        guard let current else { throw Entities.notFound(collection, id: id, code: code) }
        return current
    }

    /// Whether the request is create-only (`If-None-Match: *`).
    static func isCreateOnly(_ request: APIRequest) -> Bool {
        request.header("If-None-Match")?.trimmingCharacters(in: .whitespaces) == "*"
    }
}
