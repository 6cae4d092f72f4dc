import Foundation

/// A request a plugin sends through the kernel's transport.
public struct HTTPRequest: Sendable {
    public var method: String
    /// A path below the remote's base URL (`/v1/items/3`) or an absolute URL.
    public var path: String
    public var query: [(String, String)]
    public var headers: [(String, String)]
    public var body: Data?
    /// Attach the credential provider's bearer token (default true).
    public var authenticated: Bool

    public init(
        _ method: String,
        _ path: String,
        query: [(String, String)] = [],
        headers: [(String, String)] = [],
        body: Data? = nil,
        authenticated: Bool = true
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.authenticated = authenticated
    }

    /// A request whose body is `value` encoded as JSON.
    public static func json<Body: Encodable>(
        _ method: String,
        _ path: String,
        body value: Body
    ) throws -> HTTPRequest {
        HTTPRequest(method, path, headers: [("Content-Type", "application/json")], body: try JSONEncoder.ferry.encode(value))
    }

    /// Whether the request changes state on the remote (anything but GET and HEAD): the
    /// writes that carry an operation's `Idempotency-Key`.
    var changesState: Bool {
        let method = method.uppercased()
        return method != "GET" && method != "HEAD"
    }

    /// Whether `path` is an absolute URL (a third party's, such as TMDB), not a path below
    /// the plugin's remote.
    var isAbsolute: Bool { path.hasPrefix("http://") || path.hasPrefix("https://") }
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
