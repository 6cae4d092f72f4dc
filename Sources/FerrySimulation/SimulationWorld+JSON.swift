import Foundation
import SyncKernel
import SyncKernelTesting

extension SimulationWorld {
    /// The JSON object the server answers to `GET path` for the user signed in on `device`:
    /// what the checks compare the devices with.
    func json(_ path: String, as device: SimulatedDevice) async throws -> [String: Any] {
        let answer = try await ask("GET", path, as: device)
        guard answer.status == 200, let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any] else {
            throw FerryError(.rejected, "GET \(path) answered \(answer.status)")
        }
        return object
    }
}
