import FerryServer
import Foundation
import Logging
import SyncKernel
import SyncKernelTesting

/// The reference server in a simulation: `InProcessFerryServer` on its own SQLite file,
/// on the world's clock, with the demo data.
struct SimulatedFerryServer: SimulatedServer {
    let server: InProcessFerryServer

    /// The token of its admin endpoints: the workloads change what only an operator can
    /// (an audio collection's albums) through them.
    static let adminToken = "simulated-admin"

    /// Starts it in `directory`: seeded the first time, on its own data after a restart.
    static let start: SimulatedServerStarter = { directory, clock, fresh in
        var configuration = FerryServerConfiguration(
            dataDirectory: directory,
            seedDemo: fresh,
            logger: Logger(label: "ferry.sim.server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        configuration.now = { clock.now }
        configuration.passwordHashCost = 4
        configuration.demoTrackSeconds = 0.5
        configuration.admin = .token(adminToken)
        return SimulatedFerryServer(server: try await InProcessFerryServer.open(configuration))
    }

    func respond(method: String, path: String, headers: [(String, String)], body: Data?) async throws -> HTTPResponse {
        let answer = try await server.respond(method: method, path: path, headers: headers, body: body)
        return HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }

    func respondDying(method: String, path: String, headers: [(String, String)], body: Data?) async throws -> HTTPResponse? {
        do {
            let answer = try await server.respond(dyingBeforeRecord: true, method: method, path: path, headers: headers, body: body)
            return HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body)
        } catch is ServerDied {
            return nil
        }
    }

    func changeSequence() async throws -> Int {
        try await server.changeSequence()
    }

    func stop() async {
        await server.close()
    }
}
