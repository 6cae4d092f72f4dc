import Foundation

/// A request a plugin sends through the kernel's transport.
///
/// It names what to ask, not how: the transport adds the base URL, the credentials and,
/// during an operation's send, the `Idempotency-Key`.
///
/// ```swift
/// let page = try await context.transport.send(HTTPRequest("GET", "/v1/items", query: [("limit", "100")]))
/// let saved = try await context.transport.send(.json("PUT", "/v1/items/\(id)", body: item))
/// ```
public struct HTTPRequest: Sendable {
    /// The HTTP method, such as `GET` or `PUT`; anything but `GET` and `HEAD` is a write,
    /// which carries an idempotency key when it is part of an operation's send.
    public var method: String
    /// A path below the remote's base URL (`/v1/items/3`) or an absolute URL.
    ///
    /// A request to an absolute URL (a third party's) never carries an idempotency key, but
    /// it does carry the bearer token unless `authenticated` is false.
    public var path: String
    /// The query items, in order; the transport percent-encodes them (`+` included) and
    /// appends them to the URL.
    public var query: [(String, String)]
    /// Headers of the request's own, sent after the transport's `User-Agent: Ferry` and
    /// `Accept: application/json`, which they add to rather than replace.
    public var headers: [(String, String)]
    /// The body, sent as it is; its `Content-Type` goes in `headers` (`json(_:_:body:)`
    /// sets both).
    public var body: Data?
    /// Whether the credential provider's bearer token and session headers go with the
    /// request (default true); set it false for a public endpoint or a third party.
    public var authenticated: Bool
    /// How a 429 (too many requests) to this request is waited out by the transport
    /// before it is thrown; nil: thrown at once, for the outbox to retry when the remote
    /// allows.
    public var rateLimitWait: RateLimitWait?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: the HTTP method, such as `GET`.
    ///   - path: a path below the remote's base URL, or an absolute URL.
    ///   - query: the query items, in order.
    ///   - headers: headers of the request's own.
    ///   - body: the body, sent as it is.
    ///   - authenticated: whether the bearer token and session headers go with it.
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
        self.rateLimitWait = nil
    }

    /// A request whose body is `value` encoded as JSON.
    ///
    /// It is encoded with `JSONEncoder.ferry` (snake_case keys, ISO-8601 dates, sorted
    /// keys) and sent with `Content-Type: application/json`.
    ///
    /// - Parameters:
    ///   - method: the HTTP method, such as `PUT`.
    ///   - path: a path below the remote's base URL, or an absolute URL.
    ///   - value: what the body holds.
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

/// An answer from a remote: its status, headers and body.
///
/// `HTTPTransport.send` returns only 2xx answers (any other becomes a `RemoteFailure`); an
/// `HTTPExecutor` returns whatever status came.
public struct HTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Header values by lower-cased name.
    public var headers: [String: String]
    /// The body, decompressed; from the transport, at most its `maxBodyBytes`
    /// (`sync.max_answer`).
    public var body: Data

    /// Creates an answer, as an executor or a test fake builds it.
    ///
    /// - Parameters:
    ///   - status: the HTTP status code.
    ///   - headers: header values; pass lower-cased names, as `headers` is read with them.
    ///   - body: the body.
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Decodes the body as JSON with `JSONDecoder.ferry` (snake_case keys, ISO-8601 dates).
    ///
    /// A body that does not decode throws a `DecodingError`; a send that lets it through
    /// goes again with backoff (the remote answers a resend from its record), and becomes a
    /// dead letter once `retry.max_attempts` is spent.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder.ferry.decode(T.self, from: body)
    }
}

/// How a request waits out a 429: at most `times` times in a row, each time for the
/// answer's `Retry-After` (1 second when it has none) when that is at most `longest` seconds.
public struct RateLimitWait: Sendable, Equatable {
    /// How many 429s in a row are waited out.
    public var times: Int
    /// The longest `Retry-After` waited out, in seconds; a longer one is thrown at once.
    public var longest: TimeInterval

    /// Waits out up to `times` 429s whose `Retry-After` is at most `longest` seconds.
    public init(times: Int, longest: TimeInterval) {
        self.times = times
        self.longest = longest
    }
}
