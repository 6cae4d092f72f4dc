import FerryServer
import Foundation
import Logging

/// The reference server for tests, in this process on a free loopback port: the demo
/// data, quiet logs, cheap password hashing and short demo tracks.
///
/// ```swift
/// let server = try await DemoFerryServer.start()
/// let credentials = try await StaticCredentials.signedIn(at: server.baseURL)
/// // ... TestRuntime.make(server: server.baseURL, ...)
/// await server.stop()
/// ```
public enum DemoFerryServer {
    /// Starts the server; `configure` changes anything else (a clock, faults, limits).
    public static func start(
        configure: (inout FerryServerConfiguration) -> Void = { _ in }
    ) async throws -> RunningFerryServer {
        var configuration = FerryServerConfiguration(
            port: 0,
            seedDemo: true,
            logger: Logger(label: "ferry.test-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        configuration.passwordHashCost = 4
        configuration.demoTrackSeconds = 0.5
        configure(&configuration)
        return try await FerryServer.start(configuration)
    }
}
