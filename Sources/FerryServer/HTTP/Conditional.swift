/// `If-Match` / `If-None-Match` handling for versioned entities (ETag = `"<version>"`).
enum Conditional {
    /// The version asked for by `If-Match`, nil when absent or `*`; a 400 when unparseable.
    static func ifMatchVersion(_ request: APIRequest) throws(APIError) -> Int? {
        guard let raw = request.header("If-Match")?.trimmingCharacters(in: .whitespaces), raw != "*" else { return nil }
        var value = Substring(raw)
        if value.hasPrefix("W/") { value = value.dropFirst(2) }
        value = value.drop { $0 == "\"" }
        while value.last == "\"" { value = value.dropLast() }
        guard let version = Int(value) else {
            throw APIError.badRequest("invalid_if_match", "If-Match must be an ETag such as \"3\".")
        }
        return version
    }

    /// Throws 412 with the current entity when `If-Match` names another version than `current`'s.
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

    /// Whether the request is create-only (`If-None-Match: *`).
    static func isCreateOnly(_ request: APIRequest) -> Bool {
        request.header("If-None-Match")?.trimmingCharacters(in: .whitespaces) == "*"
    }
}
