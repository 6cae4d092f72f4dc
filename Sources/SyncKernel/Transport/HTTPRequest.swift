import Foundation

/// A request a plugin sends through the kernel's transport.
public struct HTTPRequest: Sendable {
    public var method: String
    /// A path below the remote's base URL (`/v1/items/3`) or an absolute URL.
    public var path: String
    public var query: [(String, String)]
    public var headers: [(String, String)]
    public var body: Data?
    /// Sent as `Idempotency-Key`; the kernel sets it to the operation's id.
    public var idempotencyKey: String?
    /// Attach the credential provider's bearer token (default true).
    public var authenticated: Bool

    public init(
        _ method: String,
        _ path: String,
        query: [(String, String)] = [],
        headers: [(String, String)] = [],
        body: Data? = nil,
        idempotencyKey: String? = nil,
        authenticated: Bool = true
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.idempotencyKey = idempotencyKey
        self.authenticated = authenticated
    }

    /// A request whose body is `value` encoded as JSON.
    public static func json<Body: Encodable>(
        _ method: String,
        _ path: String,
        body value: Body,
        idempotencyKey: String? = nil
    ) throws -> HTTPRequest {
        HTTPRequest(
            method,
            path,
            headers: [("Content-Type", "application/json")],
            body: try JSONEncoder.ferry.encode(value),
            idempotencyKey: idempotencyKey
        )
    }
}

/// A successful answer.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header values by lower-cased name.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Decodes the body as JSON; a body that does not decode is classified as rejected.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder.ferry.decode(T.self, from: body)
    }
}
