import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Sends HTTP requests for plugins: resolves the remote, attaches credentials,
/// renews them once on a 401, and turns failures into `RemoteFailure` or `TransportFailure`.
public struct HTTPTransport: Sendable {
    /// The base URL of the remote (resolved lazily: an embedded server starts on first use).
    public let baseURL: @Sendable () async throws -> String
    public let credentials: (any CredentialProvider)?
    public let timeout: TimeInterval
    /// The largest body accepted from a remote.
    public let maxBodyBytes: Int
    let logger: Logger

    public init(
        baseURL: @escaping @Sendable () async throws -> String,
        credentials: (any CredentialProvider)? = nil,
        timeout: TimeInterval = 30,
        maxBodyBytes: Int = 64 << 20,
        logger: Logger = Logger(label: "ferry.transport")
    ) {
        self.baseURL = baseURL
        self.credentials = credentials
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.logger = logger
    }

    /// A transport for a fixed base URL.
    public init(baseURL: String, credentials: (any CredentialProvider)? = nil, timeout: TimeInterval = 30) {
        self.init(baseURL: { baseURL }, credentials: credentials, timeout: timeout)
    }

    /// The same transport with other credentials (or none).
    public func with(credentials: (any CredentialProvider)?) -> HTTPTransport {
        HTTPTransport(baseURL: baseURL, credentials: credentials, timeout: timeout, maxBodyBytes: maxBodyBytes, logger: logger)
    }

    /// Sends `request`; returns a 2xx answer, throws `RemoteFailure` for any other status
    /// and `TransportFailure` when no answer came.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let token = request.authenticated ? await credentials?.accessToken() : nil
        let first = try await execute(request, token: token)
        if first.status == 401, let token, let credentials,
            let renewed = await credentials.refreshAccessToken(rejected: token)
        {
            return try check(try await execute(request, token: renewed))
        }
        return try check(first)
    }

    private func check(_ response: HTTPResponse) throws -> HTTPResponse {
        guard (200..<300).contains(response.status) else {
            throw RemoteFailure(status: response.status, headers: response.headers, body: response.body)
        }
        return response
    }

    private func execute(_ request: HTTPRequest, token: String?) async throws -> HTTPResponse {
        let url = try await resolve(request)
        var outgoing = HTTPClientRequest(url: url)
        outgoing.method = HTTPMethod(rawValue: request.method)
        outgoing.headers.add(name: "User-Agent", value: "Ferry")
        outgoing.headers.add(name: "Accept", value: "application/json")
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let token { outgoing.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let key = request.idempotencyKey { outgoing.headers.add(name: "Idempotency-Key", value: key) }
        if request.authenticated, let member = await credentials?.actingAs() {
            outgoing.headers.add(name: "X-Acting-As-Member", value: member)
        }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await HTTPClient.shared.execute(outgoing, timeout: .milliseconds(Int64(timeout * 1000)))
            let body = try await response.body.collect(upTo: maxBodyBytes)
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name.lowercased()] = header.value }
            logger.debug("\(request.method) \(request.path) -> \(response.status.code)")
            return HTTPResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
        } catch let error as CancellationError {
            throw error
        } catch {
            let failure = TransportFailure(reason: "\(request.method) \(request.path): \(Self.describe(error))")
            logger.debug("\(failure.reason)")
            throw failure
        }
    }

    private func resolve(_ request: HTTPRequest) async throws -> String {
        var url = request.path.hasPrefix("http://") || request.path.hasPrefix("https://")
            ? request.path : try await baseURL().trimmingSuffix("/") + request.path
        if !request.query.isEmpty {
            var components = URLComponents()
            components.queryItems = request.query.map { URLQueryItem(name: $0.0, value: $0.1) }
            let encoded = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B") ?? ""
            url += (url.contains("?") ? "&" : "?") + encoded
        }
        return url
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
        if text.contains("refused") { return "connection refused" }
        if text.contains("reset") { return "connection reset" }
        if text.localizedCaseInsensitiveContains("dns") || text.contains("resolve") { return "the host name did not resolve" }
        return text
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
