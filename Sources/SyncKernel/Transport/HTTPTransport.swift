import Foundation
import Logging

/// Sends HTTP requests for plugins: resolves the remote, attaches credentials,
/// renews them once on a 401, and turns failures into `RemoteFailure` or `TransportFailure`.
public struct HTTPTransport: Sendable {
    /// The base URL of the remote (resolved lazily: an embedded server starts on first use).
    public let baseURL: @Sendable () async throws -> String
    public let credentials: (any CredentialProvider)?
    public let timeout: TimeInterval
    /// The largest body accepted from a remote.
    public let maxBodyBytes: Int
    /// What puts requests on the wire.
    public let executor: any HTTPExecutor
    let logger: Logger
    /// Set while the transport sends one operation: its writes carry these keys.
    let keys: IdempotencyKeys?

    public init(
        baseURL: @escaping @Sendable () async throws -> String,
        credentials: (any CredentialProvider)? = nil,
        timeout: TimeInterval = 30,
        maxBodyBytes: Int = 64 << 20,
        executor: any HTTPExecutor = AsyncHTTPExecutor(),
        logger: Logger = Logger(label: "ferry.transport")
    ) {
        self.init(
            baseURL: baseURL,
            credentials: credentials,
            timeout: timeout,
            maxBodyBytes: maxBodyBytes,
            executor: executor,
            logger: logger,
            keys: nil
        )
    }

    private init(
        baseURL: @escaping @Sendable () async throws -> String,
        credentials: (any CredentialProvider)?,
        timeout: TimeInterval,
        maxBodyBytes: Int,
        executor: any HTTPExecutor,
        logger: Logger,
        keys: IdempotencyKeys?
    ) {
        self.keys = keys
        self.executor = executor
        self.baseURL = baseURL
        self.credentials = credentials
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.logger = logger
    }

    /// A transport for a fixed base URL.
    public init(
        baseURL: String,
        credentials: (any CredentialProvider)? = nil,
        timeout: TimeInterval = 30,
        executor: any HTTPExecutor = AsyncHTTPExecutor()
    ) {
        self.init(baseURL: { baseURL }, credentials: credentials, timeout: timeout, executor: executor)
    }

    /// The same transport with other credentials (or none).
    public func with(credentials: (any CredentialProvider)?) -> HTTPTransport {
        copy(credentials: credentials, executor: executor, keys: keys)
    }

    /// The same transport putting its requests on the wire through `executor`.
    func with(executor: any HTTPExecutor) -> HTTPTransport {
        copy(credentials: credentials, executor: executor, keys: keys)
    }

    /// The transport of one operation's send: its writes to the remote carry the
    /// operation's idempotency keys (`IdempotencyKeys`).
    func sending(_ operation: QueuedOperation) -> HTTPTransport {
        copy(credentials: credentials, executor: executor, keys: IdempotencyKeys(operation: operation.id))
    }

    private func copy(
        credentials: (any CredentialProvider)?,
        executor: any HTTPExecutor,
        keys: IdempotencyKeys?
    ) -> HTTPTransport {
        HTTPTransport(
            baseURL: baseURL,
            credentials: credentials,
            timeout: timeout,
            maxBodyBytes: maxBodyBytes,
            executor: executor,
            logger: logger,
            keys: keys
        )
    }

    /// Sends `request`; returns a 2xx answer, throws `RemoteFailure` for any other status
    /// and `TransportFailure` when no answer came.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let key = request.changesState && !request.isAbsolute ? keys?.next() : nil
        let token = request.authenticated ? await credentials?.accessToken() : nil
        let first = try await execute(request, token: token, key: key)
        if first.status == 401, let token, let credentials,
            let renewed = try await credentials.refreshAccessToken(rejected: token)
        {
            return try check(try await execute(request, token: renewed, key: key), sentWith: renewed)
        }
        return try check(first, sentWith: token)
    }

    private func check(_ response: HTTPResponse, sentWith token: String?) throws -> HTTPResponse {
        guard (200..<300).contains(response.status) else {
            var failure = RemoteFailure(status: response.status, headers: response.headers, body: response.body)
            if response.status == 401 { failure.refusedCredential = token.map(CredentialFingerprint.of) }
            throw failure
        }
        return response
    }

    private func execute(_ request: HTTPRequest, token: String?, key: String?) async throws -> HTTPResponse {
        var headers: [(String, String)] = [("User-Agent", "Ferry"), ("Accept", "application/json")]
        headers += request.headers
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if let key { headers.append(("Idempotency-Key", key)) }
        if request.authenticated, let credentials {
            headers += await credentials.sessionHeaders().map { ($0.name, $0.value) }
        }
        let prepared = PreparedRequest(
            method: request.method,
            url: try await resolve(request),
            headers: headers,
            body: request.body,
            timeout: timeout
        )
        let response = try await executor.execute(prepared, maxBodyBytes: maxBodyBytes)
        logger.debug("\(request.method) \(request.path) -> \(response.status)")
        return response
    }

    private func resolve(_ request: HTTPRequest) async throws -> String {
        var url =
            request.path.hasPrefix("http://") || request.path.hasPrefix("https://")
            ? request.path : try await baseURL().trimmingSuffix("/") + request.path
        if !request.query.isEmpty {
            var components = URLComponents()
            components.queryItems = request.query.map { URLQueryItem(name: $0.0, value: $0.1) }
            let encoded = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B") ?? ""
            url += (url.contains("?") ? "&" : "?") + encoded
        }
        return url
    }

}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
