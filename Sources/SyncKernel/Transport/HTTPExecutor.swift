import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// A request ready to go on the wire, as an `HTTPExecutor` receives it: an absolute URL
/// and every header, credentials and `Idempotency-Key` included.
public struct PreparedRequest: Sendable {
    /// The HTTP method, such as `GET` or `POST`.
    public var method: String
    /// The absolute URL, query included; a `TransportFailure` names it without its query,
    /// which may carry an API key.
    public var url: String
    /// The headers, sent in this order; a name may appear more than once.
    public var headers: [(String, String)]
    /// The body, or nil for none.
    public var body: Data?
    /// How long the exchange may take, in seconds: `sync.request_timeout` for the
    /// transport's requests, hours for a file download. `AsyncHTTPExecutor` fails a request
    /// whose whole answer (`execute`), or whose status and headers (`stream`), have not come
    /// by then with a `TransportFailure`; a streamed body is bound by the 30-second stall
    /// limit instead.
    public var timeout: TimeInterval

    /// The value of the first header called `name` (ASCII letters in any case), or nil.
    public func header(_ name: String) -> String? {
        headers.first { Self.sameName($0.0, name) }?.1
    }

    /// Whether two header names are the same, ASCII letters compared in any case (as
    /// HTTP compares names; Foundation's case-insensitive comparison is Unicode's, and
    /// showed in every batched send).
    static func sameName(_ one: String, _ other: String) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        return one.utf8.count == other.utf8.count && zip(one.utf8, other.utf8).allSatisfy { lower($0) == lower($1) }
    }
}

/// Puts requests on the wire. The default speaks HTTP through AsyncHTTPClient;
/// `RecordingExecutor` in `SyncKernelTesting` records requests and answers from a script.
public protocol HTTPExecutor: Sendable {
    /// Returns the answer, whatever its status; throws `TransportFailure` when none came,
    /// `AnswerTooLarge` when its body is larger than `maxBodyBytes`.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - maxBodyBytes: the largest answer body to read (`sync.max_answer` for the
    ///     transport's requests); a larger one is not read whole.
    func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse

    /// Sends `request` and hands over its answer as it arrives: the status and headers to
    /// `head`, then each piece of the body to `body`, so that a file is never held in
    /// memory whole. Throws `TransportFailure` when the answer stops coming.
    ///
    /// An error thrown by `head` or `body` ends the exchange and is rethrown as it is.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - head: receives the status and the headers (lower-cased names) before any of
    ///     the body.
    ///   - body: receives each piece of the body, in order.
    func stream(
        _ request: PreparedRequest,
        head: (_ status: Int, _ headers: [String: String]) async throws -> Void,
        body: (Data) async throws -> Void
    ) async throws
}

extension HTTPExecutor {
    /// Streams from a whole answer, for executors that only answer whole (test fakes).
    ///
    /// The answer is read with `execute` and no practical size cap (`Int32.max` bytes),
    /// then `body` gets it in one piece, or not at all when it is empty.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - head: receives the status and the headers.
    ///   - body: receives the whole body at once.
    public func stream(
        _ request: PreparedRequest,
        head: (_ status: Int, _ headers: [String: String]) async throws -> Void,
        body: (Data) async throws -> Void
    ) async throws {
        let response = try await execute(request, maxBodyBytes: Int(Int32.max))
        try await head(response.status, response.headers)
        if !response.body.isEmpty { try await body(response.body) }
    }
}

/// HTTP through one AsyncHTTPClient `HTTPClient`, owned by this executor: the runtime's
/// requests, its probe and its downloads share its connections.
///
/// The client fails fast on a refused connection (offline is known in milliseconds), gives
/// up on an answer that stalls for 30 seconds, and decompresses API answers (up to 20
/// times their size) while files are asked for uncompressed. `shutdown()` closes it; an
/// executor dropped without it closes its client in the background.
public final class AsyncHTTPExecutor: HTTPExecutor {
    /// The client, created by the first request: a command that sends nothing (a local
    /// write offline, a read from the cache) neither starts NIO's event loops nor closes a
    /// client, about a millisecond of its start-up. `closed` once `shutdown()` ran.
    private let state = Mutex<(client: HTTPClient?, closed: Bool)>((nil, false))

    /// Creates the executor; its client, on the process's shared event loops, comes with
    /// the first request.
    public init() {}

    /// The client, created now if this is the first request.
    private var client: HTTPClient {
        get throws {
            try state.withLock { state in
                if let client = state.client { return client }
                guard !state.closed else { throw TransportFailure(reason: "the HTTP client was shut down") }
                var configuration = HTTPClient.Configuration()
                configuration.connectionPool.retryConnectionEstablishment = false
                configuration.timeout.connect = .seconds(10)
                configuration.timeout.read = .seconds(30)
                configuration.decompression = .enabled(limit: .ratio(20))
                let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
                state.client = client
                return client
            }
        }
    }

    /// Closes the client once the requests in flight are done; a second call does nothing.
    public func shutdown() async throws {
        let client = state.withLock { state -> HTTPClient? in
            defer { (state.client, state.closed) = (nil, true) }
            return state.closed ? nil : state.client
        }
        try await client?.shutdown()
    }

    deinit {
        state.withLock { state in state.closed ? nil : state.client }?.shutdown { _ in }
    }

    /// Sends `request` and reads its whole answer, decompressed, whatever its status.
    ///
    /// An answer whose `Content-Length`, or whose body as it arrives, exceeds `maxBodyBytes`
    /// throws `AnswerTooLarge`, and the rest of it is not read. The whole answer must have
    /// come within `request.timeout`, however slowly its body trickles. Any other failure
    /// (refused connection, timeout, lost connection, TLS) throws a `TransportFailure` whose reason
    /// names the method and the URL without its query; cancellation throws
    /// `CancellationError`.
    ///
    /// - Parameters:
    ///   - request: the request to send.
    ///   - maxBodyBytes: the largest answer body to read.
    public func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
        do {
            // Before the deadline starts: the first request creates the client and starts
            // the event loops, which on a busy machine is not the remote's time.
            let client = try self.client
            let deadline = NIODeadline.now() + Self.deadline(request)
            let response = try await client.execute(Self.outgoing(request), deadline: deadline)
            if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maxBodyBytes {
                throw AnswerTooLarge(limit: maxBodyBytes)
            }
            let body: ByteBuffer
            do {
                body = try await Self.before(deadline) { try await response.body.collect(upTo: maxBodyBytes) }
            } catch is NIOTooManyBytesError {
                throw AnswerTooLarge(limit: maxBodyBytes)
            }
            return HTTPResponse(
                status: Int(response.status.code),
                headers: Self.headers(response.headers),
                body: Data(body.readableBytesView)
            )
        } catch let error as CancellationError {
            throw error
        } catch let error as AnswerTooLarge {
            throw error
        } catch {
            throw TransportFailure(
                reason: "\(request.method) \(Self.redactedPath(request.url)): \(Self.describe(error))"
            )
        }
    }

    /// Sends `request` with `Accept-Encoding: identity`, so that sizes and byte ranges are
    /// the file's own, and hands over its answer as it arrives, with no size cap.
    ///
    /// Failing to connect, or the body stopping, throws a `TransportFailure` whose reason
    /// names the method and the URL without its query.
    ///
    /// - Parameters:
    ///   - request: the request to send; its `timeout` bounds the wait for the status
    ///     and headers, not the body.
    ///   - head: receives the status and the headers (lower-cased names).
    ///   - body: receives each piece of the body, in order.
    public func stream(
        _ request: PreparedRequest,
        head: (_ status: Int, _ headers: [String: String]) async throws -> Void,
        body: (Data) async throws -> Void
    ) async throws {
        var outgoing = Self.outgoing(request)
        // A file is asked for as it is: sizes and ranges stay the remote's.
        outgoing.headers.replaceOrAdd(name: "Accept-Encoding", value: "identity")
        let response: HTTPClientResponse
        do {
            let client = try self.client
            response = try await client.execute(outgoing, timeout: Self.deadline(request))
        } catch let error as CancellationError {
            throw error
        } catch {
            throw TransportFailure(
                reason: "\(request.method) \(Self.redactedPath(request.url)): \(Self.describe(error))"
            )
        }
        try await head(Int(response.status.code), Self.headers(response.headers))
        var iterator = response.body.makeAsyncIterator()
        while true {
            let next: ByteBuffer?
            do {
                next = try await iterator.next()
            } catch let error as CancellationError {
                throw error
            } catch {
                throw TransportFailure(
                    reason: "\(request.method) \(Self.redactedPath(request.url)): \(Self.describe(error))"
                )
            }
            guard let next else { return }
            try await body(Data(next.readableBytesView))
        }
    }

    private static func outgoing(_ request: PreparedRequest) -> HTTPClientRequest {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        return outgoing
    }

    /// The result of `work`, or `HTTPClientError.deadlineExceeded` (and `work` cancelled)
    /// if it has not finished by `deadline`.
    private static func before<T: Sendable>(
        _ deadline: NIODeadline,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                let left = deadline - NIODeadline.now()
                try await Task.sleep(nanoseconds: UInt64(max(left.nanoseconds, 0)))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw HTTPClientError.deadlineExceeded
            }
            return value
        }
    }

    private static func deadline(_ request: PreparedRequest) -> TimeAmount {
        .milliseconds(Int64(request.timeout * 1000))
    }

    private static func headers(_ fields: HTTPHeaders) -> [String: String] {
        var headers: [String: String] = [:]
        for header in fields { headers[header.name.lowercased()] = header.value }
        return headers
    }

    /// The URL without its query, which may carry an API key.
    static func redactedPath(_ url: String) -> String {
        String(url.split(separator: "?", maxSplits: 1).first ?? "")
    }

    /// A short, secret-free description of a transport error.
    static func describe(_ error: any Error) -> String {
        if let client = error as? HTTPClientError {
            switch client {
            case .connectTimeout: return "timed out connecting"
            case .readTimeout, .deadlineExceeded: return "timed out waiting for an answer"
            case .remoteConnectionClosed: return "the connection was lost"
            default: return "\(client)"
            }
        }
        let text = String(describing: error)
        if text.localizedCaseInsensitiveContains("refused") { return "connection refused" }
        if text.localizedCaseInsensitiveContains("reset") { return "connection reset" }
        if text.localizedCaseInsensitiveContains("dns") || text.contains("resolve") {
            return "the host name did not resolve"
        }
        if text.contains("NIOSSL") || text.contains("TLS") { return "the secure connection failed" }
        return text
    }
}
