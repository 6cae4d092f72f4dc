import Foundation

/// A response as the tests inspect it.
struct TestResponse {
    var status: Int
    var headers: [String: String]
    var body: Data

    /// The body parsed as JSON (`[String: Any]`, `[Any]`...), nil when not JSON.
    var json: Any? { try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }

    /// The body as a JSON object, or empty.
    var object: [String: Any] { json as? [String: Any] ?? [:] }

    /// `error.code` of an error-shaped body.
    var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }

    /// `error.details` of an error-shaped body.
    var errorDetails: [String: Any] { (object["error"] as? [String: Any])?["details"] as? [String: Any] ?? [:] }

    /// A header by case-insensitive name.
    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Whether the body has the error shape with a code and a message.
    var hasErrorShape: Bool {
        guard let error = object["error"] as? [String: Any] else { return false }
        return error["code"] is String && error["message"] is String && error["details"] is [String: Any]
    }
}
