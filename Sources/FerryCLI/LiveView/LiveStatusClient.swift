import Foundation
import SyncKernel

/// How `ferry status` asks a running runner: `GET /api/status` of its live view, when
/// `status.listen` is set and the runner answers within a second; nil otherwise (the
/// command then reads the store, as without a runner).
enum LiveStatusClient {
    /// How long the runner has to answer.
    static let timeout: TimeInterval = 1

    static func status(_ settings: LiveViewSettings) async -> QueueInspector.Status? {
        guard let listen = settings.listen, listen.port != 0 else { return nil }
        let transport = HTTPTransport(baseURL: "http://\(reachable(listen))", timeout: timeout)
        let headers = settings.token.map { [("Authorization", "Bearer \($0)")] } ?? []
        guard
            let answer = try? await transport.send(
                HTTPRequest("GET", "/api/status", headers: headers, authenticated: false)
            )
        else { return nil }
        return try? decoder.decode(QueueInspector.Status.self, from: answer.body)
    }

    /// The address to reach a server listening on `address` from this machine: a server on
    /// every interface answers on loopback.
    static func reachable(_ address: ListenAddress) -> ListenAddress {
        switch address.host {
        case "0.0.0.0": ListenAddress(host: "127.0.0.1", port: address.port)
        case "::": ListenAddress(host: "::1", port: address.port)
        default: address
        }
    }

    /// Reads what `JSONOutput` writes: snake_case keys, ISO-8601 dates.
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
