import Foundation
import HTTPTypes

/// One API request as the handlers see it, whether it came over HTTP or inside a batch.
struct APIRequest: Sendable {
    var method: HTTPRequest.Method
    /// The path without the query string, still percent-encoded.
    var path: String
    /// Decoded query parameters; the last value wins for repeated names.
    var query: [String: String]
    var headers: [String: String]
    var body: Data
    /// Path parameters captured by the matched route template, percent-decoded.
    var parameters: [String: String] = [:]
    /// The caller, once authenticated.
    var user: AuthenticatedUser?
    /// The body already decoded: a batch's sub-request arrives parsed with the batch.
    var json: JSON?
    /// The caller's IP address, as the connection shows it (a proxy's, behind one).
    var peer: String?

    /// The body as JSON, or nil when it is not JSON.
    var decodedBody: JSON? { json ?? JSON.decode(body) }

    /// A header by case-insensitive name.
    func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// A path parameter; the route guarantees that it exists.
    func parameter(_ name: String) -> String {
        parameters[name] ?? ""
    }

    /// The authenticated user; throws 401 when the route forgot to require authentication.
    func requireUser() throws(APIError) -> AuthenticatedUser {
        guard let user else { throw APIError.unauthorized }
        return user
    }

    /// The body as a JSON object, or a 400 with the error shape.
    func jsonObject() throws(APIError) -> [String: JSON] {
        guard !body.isEmpty else {
            throw APIError.badRequest("missing_body", "This request needs a JSON object body.")
        }
        guard let json = decodedBody else {
            throw APIError.badRequest("malformed_json", "The request body is not valid JSON.")
        }
        guard let object = json.objectValue else {
            throw APIError.badRequest("invalid_body", "The request body must be a JSON object, not \(json.typeName).")
        }
        return object
    }

    /// The body as a JSON object whose keys are all in `allowed`; unknown keys are a 400 naming them.
    func jsonObject(allowing allowed: Set<String>) throws(APIError) -> [String: JSON] {
        let object = try jsonObject()
        let unknown = Set(object.keys).subtracting(allowed).sorted()
        if let first = unknown.first {
            throw APIError(
                .badRequest,
                "unknown_field",
                "Unknown field '\(first)'. Allowed fields: \(allowed.sorted().joined(separator: ", ")).",
                details: ["field": .string(first), "allowed": .array(allowed.sorted().map(JSON.string))]
            )
        }
        return object
    }
}

extension Dictionary where Key == String, Value == JSON {
    /// A required string field, or a 400 naming the field.
    func requiredString(_ key: String) throws(APIError) -> String {
        guard let value = self[key] else { throw APIError.invalidField(key, "Field '\(key)' is required.") }
        guard let string = value.stringValue, !string.isEmpty else {
            throw APIError.invalidField(key, "Field '\(key)' must be a non-empty string, not \(value.typeName).")
        }
        return string
    }

    /// A required integer field, or a 400 naming the field.
    func requiredInt(_ key: String) throws(APIError) -> Int {
        guard let value = self[key] else { throw APIError.invalidField(key, "Field '\(key)' is required.") }
        guard let int = value.intValue else {
            throw APIError.invalidField(key, "Field '\(key)' must be an integer, not \(value.typeName).")
        }
        return int
    }

    /// An optional string field: absent or null is nil; another type is a 400.
    func optionalString(_ key: String) throws(APIError) -> String? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let string = value.stringValue else {
            throw APIError.invalidField(key, "Field '\(key)' must be a string or null, not \(value.typeName).")
        }
        return string
    }
}
