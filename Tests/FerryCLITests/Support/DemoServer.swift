import FerryServer
import Foundation
import Logging

/// The reference server with its demo data on a free loopback port, quiet, with cheap
/// password hashing; `trackSeconds` sets the length (and so the size) of the demo tracks.
enum DemoServer {
    static func start(trackSeconds: Double = 6) async throws -> RunningFerryServer {
        var configuration = FerryServerConfiguration(
            port: 0,
            seedDemo: true,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        configuration.passwordHashCost = 4
        configuration.demoTrackSeconds = trackSeconds
        return try await FerryServer.start(configuration)
    }
}
