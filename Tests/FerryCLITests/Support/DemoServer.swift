import FerryServer
import FerryServerTesting

/// The reference server with its demo data; `trackSeconds` sets the length (and so the
/// size) of the demo tracks.
enum DemoServer {
    static func start(trackSeconds: Double = 6) async throws -> RunningFerryServer {
        try await DemoFerryServer.start { $0.demoTrackSeconds = trackSeconds }
    }
}
