import FerryServer
import Foundation
import SyncKernel

extension RunningFerryServer {
    /// How many requests the server received for `route` (e.g. "GET /v1/auth/me").
    func received(_ route: String) async throws -> Int {
        let response = try await HTTPTransport(baseURL: baseURL).send(
            HTTPRequest("GET", "/admin/stats", authenticated: false)
        )
        let stats = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        return (stats?["requests"] as? [String: Any])?[route] as? Int ?? 0
    }
}
