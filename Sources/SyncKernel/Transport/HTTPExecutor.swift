import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

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
    /// Returns the answer, whatever its status; throws `TransportFailure` when none came.
    func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse
}

/// HTTP through AsyncHTTPClient.
public struct AsyncHTTPExecutor: HTTPExecutor {
    public init() {}

    /// One client for the process, configured to fail fast: a refused connection is
    /// reported at once instead of being retried until the request's deadline, so that
    /// "offline" is known in milliseconds.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        configuration.decompression = .enabled(limit: .ratio(20))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    public func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await Self.client.execute(
                outgoing,
                timeout: .milliseconds(Int64(request.timeout * 1000))
            )
            if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maxBodyBytes {
                throw AnswerTooLarge(limit: maxBodyBytes)
            }
            let body: ByteBuffer
            do {
                body = try await response.body.collect(upTo: maxBodyBytes)
            } catch is NIOTooManyBytesError {
                throw AnswerTooLarge(limit: maxBodyBytes)
            }
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name.lowercased()] = header.value }
            return HTTPResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
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
