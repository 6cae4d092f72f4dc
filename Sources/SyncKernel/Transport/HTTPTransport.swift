import Foundation
import Logging

/// Sends HTTP requests for plugins: resolves the remote, attaches credentials,
/// renews them once on a 401, and turns failures into `RemoteFailure` or `TransportFailure`.
///
/// While it sends an operation, the transport gives the operation's writes to its remote
/// their `Idempotency-Key`s (`IdempotencyKeys`): the first write carries the operation's
/// id, later ones `<id>.2`, `<id>.3`, so a resend finds the answers the remote stored. A
/// plugin never sets these keys itself.
public struct HTTPTransport: Sendable {
    /// The base URL of the remote (resolved lazily: an embedded server starts on first use).
    public let baseURL: @Sendable () async throws -> String
    /// Where the bearer token and session headers come from; nil sends every request
    /// without credentials.
    public private(set) var credentials: (any CredentialProvider)?
    /// How long to wait for an answer to begin, in seconds (`sync.request_timeout` in a
    /// runtime); see `PreparedRequest.timeout`.
    public let timeout: TimeInterval
    /// The largest answer body read from a remote, in bytes (`sync.max_answer` in a
    /// runtime); a larger answer throws `AnswerTooLarge`, which fails the send as rejected.
    public let maxBodyBytes: Int
    /// What puts requests on the wire; a runtime's transports share its executor.
    public private(set) var executor: any HTTPExecutor
    /// What a `RateLimitWait` waits on.
    let clock: any KernelClock
    let logger: Logger
    /// Set while the transport sends one operation: its writes carry these keys.
    private(set) var keys: IdempotencyKeys?
    /// Set while the transport sends one operation of a batch whose operations take turns:
    /// its credential work (a sign-in, a refresh) goes aside, with the others'.
    private var turn: BatchTurns.Participant?

    /// A transport whose base URL is asked for when a request goes, not when it is made.
    ///
    /// - Parameters:
    ///   - baseURL: returns the remote's base URL; called for each request to a path.
    ///   - credentials: where the bearer token comes from; nil for none.
    ///   - timeout: how long to wait for an answer to begin, in seconds.
    ///   - maxBodyBytes: the largest answer body read, in bytes (32 MB unless given, as `sync.max_answer`).
    ///   - executor: what puts requests on the wire; by default an `AsyncHTTPExecutor` of
    ///     the transport's own, whose client closes once the transport and its copies are gone.
    ///   - clock: what a request's `RateLimitWait` waits on.
    ///   - logger: receives one debug line per request: method, path and status.
    public init(
        baseURL: @escaping @Sendable () async throws -> String,
        credentials: (any CredentialProvider)? = nil,
        timeout: TimeInterval = 30,
        maxBodyBytes: Int = 32_000_000,
        executor: any HTTPExecutor = AsyncHTTPExecutor(),
        clock: any KernelClock = SystemClock(),
        logger: Logger = Logger(label: "ferry.transport")
    ) {
        self.keys = nil
        self.executor = executor
        self.clock = clock
        self.baseURL = baseURL
        self.credentials = credentials
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.logger = logger
    }

    /// A transport for a fixed base URL, with the defaults for the largest answer body
    /// (32 MB) and the logger.
    ///
    /// - Parameters:
    ///   - baseURL: the remote's base URL, such as `https://sync.example.com`.
    ///   - credentials: where the bearer token comes from; nil for none.
    ///   - timeout: how long to wait for an answer to begin, in seconds.
    ///   - executor: what puts requests on the wire; by default an `AsyncHTTPExecutor` of
    ///     the transport's own.
    ///   - clock: what a request's `RateLimitWait` waits on.
    public init(
        baseURL: String,
        credentials: (any CredentialProvider)? = nil,
        timeout: TimeInterval = 30,
        executor: any HTTPExecutor = AsyncHTTPExecutor(),
        clock: any KernelClock = SystemClock()
    ) {
        self.init(baseURL: { baseURL }, credentials: credentials, timeout: timeout, executor: executor, clock: clock)
    }

    /// The same transport with other credentials (or none); an operation's idempotency
    /// keys go on with it.
    public func with(credentials: (any CredentialProvider)?) -> HTTPTransport {
        var copy = self
        copy.credentials = credentials
        return copy
    }

    /// The same transport putting its requests on the wire through `executor`, and its
    /// credential work in `turn` when there is one.
    func with(executor: any HTTPExecutor, turn: BatchTurns.Participant? = nil) -> HTTPTransport {
        var copy = self
        copy.executor = executor
        copy.turn = turn
        return copy
    }

    /// The transport of one operation's send: its writes to the remote carry the
    /// operation's idempotency keys (`IdempotencyKeys`).
    func sending(_ operation: QueuedOperation) -> HTTPTransport {
        var copy = self
        copy.keys = IdempotencyKeys(operation: operation.id)
        return copy
    }

    /// Sends `request`; returns a 2xx answer, throws `RemoteFailure` for any other status
    /// and `TransportFailure` when no answer came.
    ///
    /// On a 401 to an authenticated request, the credential provider is asked once to
    /// renew the refused token, and the request goes again with the new one and the same
    /// `Idempotency-Key`. A 401 that stands (no new token, or the new one refused too)
    /// throws a `RemoteFailure` carrying the refused token's fingerprint, so that a queue
    /// held for a login resumes once the provider has another. An answer larger than
    /// `maxBodyBytes` throws `AnswerTooLarge`. A 429 is waited out as the request's
    /// `rateLimitWait` says, on the transport's clock, and the request goes again.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var waited = 0
        while true {
            do {
                return try await sendOnce(request)
            } catch let failure as RemoteFailure where failure.status == 429 {
                let now = clock.now()
                guard let wait = request.rateLimitWait, waited < wait.times else { throw failure }
                let seconds = failure.headers["retry-after"].flatMap { RetryAfter.seconds(from: $0, now: now) } ?? 1
                guard seconds <= wait.longest else { throw failure }
                waited += 1
                logger.debug("\(request.method) \(request.path): too many requests; waiting \(seconds) s (Retry-After)")
                try await clock.sleep(until: now.addingTimeInterval(seconds))
            }
        }
    }

    private func accessToken() async throws -> String? {
        guard let credentials else { return nil }
        return try await credentialWork { try await credentials.accessToken() }
    }

    private func refreshAccessToken(rejected token: String) async throws -> String? {
        guard let credentials else { return nil }
        return try await credentialWork { try await credentials.refreshAccessToken(rejected: token) }
    }

    /// Runs the credential provider's `work`: aside from the turns of a batch's operations
    /// when they take them (`BatchTurns.aside`), else at once.
    private func credentialWork<T>(_ work: () async throws -> T) async rethrows -> T {
        guard let turn else { return try await work() }
        return try await turn.aside(work)
    }

    private func sendOnce(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        // The runner's credentials go to its own remote only, never to a third party's URL.
        if request.isAbsolute, request.authenticated, !(try await isOwnRemote(request.path)) {
            request.authenticated = false
        }
        let key = request.changesState && !request.isAbsolute ? keys?.next() : nil
        let token = request.authenticated ? try await accessToken() : nil
        let first = try await execute(request, token: token, key: key)
        if first.status == 401, let token, let renewed = try await refreshAccessToken(rejected: token) {
            return try check(try await execute(request, token: renewed, key: key), sentWith: renewed)
        }
        return try check(first, sentWith: token)
    }

    /// Streams the answer to `request` (a file download): `head` gets the status and the
    /// headers, `body` each chunk as it arrives. Credentials go with it as with `send`, to
    /// the transport's own remote only; `timeout` bounds the wait for the head, and the
    /// body is bound by the executor's stall limit. A 401 throws a `RemoteFailure` carrying
    /// the refused token's fingerprint once the provider's one renewal did not help (the
    /// 401 comes before any byte of the body, so the request goes again whole).
    func stream(
        _ request: HTTPRequest,
        timeout: TimeInterval,
        head: (_ status: Int, _ headers: [String: String]) async throws -> Void,
        body: (Data) async throws -> Void
    ) async throws {
        var request = request
        if request.isAbsolute, request.authenticated, !(try await isOwnRemote(request.path)) {
            request.authenticated = false
        }
        let token = request.authenticated ? try await accessToken() : nil
        do {
            try await stream(request, token: token, timeout: timeout, head: head, body: body)
        } catch let failure as RemoteFailure where failure.status == 401 {
            guard let token, let renewed = try await refreshAccessToken(rejected: token) else { throw failure }
            try await stream(request, token: renewed, timeout: timeout, head: head, body: body)
        }
    }

    private func stream(
        _ request: HTTPRequest,
        token: String?,
        timeout: TimeInterval,
        head: (_ status: Int, _ headers: [String: String]) async throws -> Void,
        body: (Data) async throws -> Void
    ) async throws {
        let prepared = PreparedRequest(
            method: request.method,
            url: try await resolve(request),
            headers: [("User-Agent", "Ferry")] + (try await credentialHeaders(request, token: token)) + request.headers,
            body: request.body,
            timeout: timeout
        )
        try await executor.stream(prepared) { status, headers in
            if status == 401 {
                var failure = RemoteFailure(status: 401, headers: headers, body: Data())
                failure.refusedCredential = token.map(CredentialFingerprint.of)
                throw failure
            }
            try await head(status, headers)
        } body: { chunk in
            try await body(chunk)
        }
    }

    /// The bearer token and the session headers for `request`, when it is authenticated.
    private func credentialHeaders(_ request: HTTPRequest, token: String?) async throws -> [(String, String)] {
        var headers: [(String, String)] = []
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if request.authenticated, let credentials {
            headers += await credentials.sessionHeaders().map { ($0.name, $0.value) }
        }
        return headers
    }

    /// Whether the absolute `url` lies below this transport's remote.
    private func isOwnRemote(_ url: String) async throws -> Bool {
        let base = try await baseURL().trimmingSuffix("/")
        return url == base || url.hasPrefix(base + "/") || url.hasPrefix(base + "?")
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
        if let key { headers.append(("Idempotency-Key", key)) }
        headers += try await credentialHeaders(request, token: token)
        let prepared = PreparedRequest(
            method: request.method,
            url: try await resolve(request),
            headers: headers,
            body: request.body,
            timeout: timeout
        )
        let response = try await executor.execute(prepared, maxBodyBytes: maxBodyBytes)
        logger.debug("\(request.method) \(request.path) -> \(response.status)")
        if key != nil, response.headers["idempotent-replayed"] == "true" { keys?.noteReplay() }
        if key != nil, (200..<300).contains(response.status), let change = response.headers["ferry-change"].flatMap(Int.init) {
            keys?.noteChange(change)
        }
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
