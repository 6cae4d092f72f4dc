import HTTPTypes

/// An error the API answers with: a status, a stable snake_case code, a message for people and details.
///
/// Every error response has the body `{"error": {"code", "message", "details"}}`.
struct APIError: Error, Sendable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    var details: [String: JSON]
    var headers: [String: String]

    init(
        _ status: HTTPResponse.Status,
        _ code: String,
        _ message: String,
        details: [String: JSON] = [:],
        headers: [String: String] = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers
    }

    /// The JSON body of this error.
    var body: JSON {
        ["error": ["code": .string(code), "message": .string(message), "details": .object(details)]]
    }
}

extension APIError {
    static func badRequest(_ code: String, _ message: String, details: [String: JSON] = [:]) -> APIError {
        APIError(.badRequest, code, message, details: details)
    }

    static func notFound(_ code: String, _ message: String) -> APIError {
        APIError(.notFound, code, message)
    }

    static let unauthorized = APIError(.unauthorized, "unauthorized", "A valid bearer access token is required.")

    static func forbidden(_ message: String, details: [String: JSON] = [:]) -> APIError {
        APIError(.forbidden, "forbidden", message, details: details)
    }

    /// 409 for a create-only write that lost: `details.current` is the existing entity.
    static func conflict(_ code: String, _ message: String, current: JSON, details: [String: JSON] = [:]) -> APIError {
        var all = details
        all["current"] = current
        return APIError(.conflict, code, message, details: all)
    }

    /// 412 for a stale `If-Match`: `details.current` is the current entity.
    static func preconditionFailed(current: JSON, expected: Int) -> APIError {
        APIError(
            .preconditionFailed,
            "version_mismatch",
            "If-Match asked for version \(expected) but the entity has changed since.",
            details: ["current": current, "expected_version": .int(expected)]
        )
    }

    static func invalidField(_ field: String, _ message: String) -> APIError {
        APIError(.badRequest, "invalid_field", message, details: ["field": .string(field)])
    }
}
