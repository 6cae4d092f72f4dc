import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// A request ready to go on the wire.
public struct PreparedRequest: Sendable {
    public var method: String
    public var url: String
    public var headers: [(String, String)]
    public var body: Data?
    public var timeout: TimeInterval

    /// The value of header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
    }
}

/// Puts requests on the wire. The default speaks HTTP through AsyncHTTPClient;
/// `RecordingExecutor` in `SyncKernelTesting` records requests and answers from a script.
public protocol HTTPExecutor: Sendable {
    /// Returns the answer, whatever its status; throws `TransportFailure` when none came,
    /// `AnswerTooLarge` when its body is larger than `maxBodyBytes`.
    func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse

    /// Sends `request` and hands over its answer as it arrives: the status and headers to
    /// `head`, then each piece of the body to `body`, so that a file is never held in
    /// memory whole. Throws `TransportFailure` when the answer stops coming.
    func stream(
        _ request: PreparedRequest,
        head: (_ status: Int, _ headers: [String: String]) async throws -> Void,
        body: (Data) async throws -> Void
    ) async throws
}

extension HTTPExecutor {
    /// Streams from a whole answer, for executors that only answer whole (test fakes).
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
    private let client: HTTPClient
    private let closed = Mutex(false)

    public init() {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        configuration.timeout.read = .seconds(30)
        configuration.decompression = .enabled(limit: .ratio(20))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Closes the client once the requests in flight are done.
    public func shutdown() async throws {
        guard closed.withLock({ closed in defer { closed = true }; return !closed }) else { return }
        try await client.shutdown()
    }

    deinit {
        if !closed.withLock({ $0 }) { client.shutdown { _ in } }
    }

    public func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
        do {
            let response = try await client.execute(Self.outgoing(request), timeout: Self.deadline(request))
            if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maxBodyBytes {
                throw AnswerTooLarge(limit: maxBodyBytes)
            }
            let body: ByteBuffer
            do {
                body = try await response.body.collect(upTo: maxBodyBytes)
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
            throw TransportFailure(reason: "\(request.method) \(Self.redactedPath(request.url)): \(Self.describe(error))")
        }
    }

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
            response = try await client.execute(outgoing, timeout: Self.deadline(request))
        } catch let error as CancellationError {
            throw error
        } catch {
            throw TransportFailure(reason: "\(request.method) \(Self.redactedPath(request.url)): \(Self.describe(error))")
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
                throw TransportFailure(reason: "\(request.method) \(Self.redactedPath(request.url)): \(Self.describe(error))")
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
