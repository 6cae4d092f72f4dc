import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// One sub-request of `POST /v1/batch`, checked and made into a request for the router.
struct Subrequest: Sendable {
    static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    /// Sub-request headers that are honoured; others are ignored.
    static let forwardedHeaders: Set<String> = [
        "idempotency-key", "if-match", "if-none-match", "x-acting-as-member", "range",
    ]

    /// The request as the router sees it, with the batch's `Authorization`.
    let request: Request
    /// Its honoured headers, by lowercased name.
    let headers: [String: String]
    /// Its JSON body, already parsed with the batch.
    let json: JSON?

    /// Checks `requests[index]`: a `400 invalid_subrequest` (or `not_batchable` for a
    /// nested batch) answers in its slot when it is malformed.
    init(_ item: JSON, index: Int, outer: APIRequest) throws(APIError) {
        guard let object = item.objectValue else {
            throw APIError.badRequest("invalid_subrequest", "requests[\(index)] must be an object.")
        }
        let unknown = Set(object.keys).subtracting(["method", "path", "headers", "body"])
        if let key = unknown.sorted().first {
            throw APIError(
                .badRequest,
                "invalid_subrequest",
                "requests[\(index)] has unknown field '\(key)'; a sub-request has method, path, headers and body.",
                details: ["field": .string(key)]
            )
        }
        guard let method = object["method"]?.stringValue?.uppercased(), Self.methods.contains(method),
            let httpMethod = HTTPRequest.Method(method)
        else {
            throw APIError.badRequest(
                "invalid_subrequest",
                "requests[\(index)].method must be one of \(Self.methods.sorted().joined(separator: ", "))."
            )
        }
        guard let fullPath = object["path"]?.stringValue, fullPath.hasPrefix("/v1/") else {
            throw APIError.badRequest(
                "invalid_subrequest",
                "requests[\(index)].path must be a string starting with /v1/."
            )
        }
        if fullPath.hasPrefix("/v1/batch") {
            throw APIError.badRequest("not_batchable", "A batch cannot contain another batch.")
        }
        var headers: [String: String] = [:]
        if let given = object["headers"], !given.isNull {
            guard let given = given.objectValue else {
                throw APIError.badRequest(
                    "invalid_subrequest",
                    "requests[\(index)].headers must be an object of strings."
                )
            }
            for (name, value) in given {
                guard let value = value.stringValue else {
                    throw APIError.badRequest(
                        "invalid_subrequest",
                        "requests[\(index)].headers.\(name) must be a string."
                    )
                }
                if Self.forwardedHeaders.contains(name.lowercased()) { headers[name.lowercased()] = value }
            }
        }
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields[name] = value }
        }
        if let authorization = outer.header("Authorization") { fields[.authorization] = authorization }
        let json = object["body"].flatMap { $0.isNull ? nil : $0 }
        var body = ByteBuffer()
        if let json {
            body = ByteBuffer(data: json.encoded())
            fields[.contentType] = "application/json"
        }
        let head = HTTPRequest(method: httpMethod, scheme: nil, authority: nil, path: fullPath, headerFields: fields)
        self.request = Request(head: head, body: RequestBody(buffer: body))
        self.headers = headers
        self.json = json
    }
}
