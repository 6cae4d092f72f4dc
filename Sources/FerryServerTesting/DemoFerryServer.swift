import FerryServer
import Foundation
import Logging

/// The reference server for tests, in this process on a free loopback port: the demo
/// data, quiet logs, cheap password hashing and short demo tracks.
///
/// Every test that needs the reference server gets it here, so that what a test server
/// is (and how cheaply it starts) is decided once:
///
/// ```swift
/// let server = try await DemoFerryServer.start()
/// let token = try await server.login()                      // the demo user
/// // ... TestRuntime.make(server: server.baseURL, ...)
/// await server.stop()
/// ```
///
/// `configure` changes anything else (faults, limits, the logger, longer demo tracks);
/// the variants below name the common ones.
public enum DemoFerryServer {
    /// The configuration ``start(configure:)`` uses: port 0 on loopback, the demo data,
    /// no logs, bcrypt cost 4 and half-second demo tracks, then `configure`.
    ///
    /// For a test of `FerryServer` itself that starts the server its own way
    /// (`FerryServer.run`, say) but wants the same cheap settings.
    public static func configuration(
        configure: (inout FerryServerConfiguration) -> Void = { _ in }
    ) -> FerryServerConfiguration {
        var configuration = FerryServerConfiguration(
            port: 0,
            seedDemo: true,
            logger: Logger(label: "ferry.test-server", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        configuration.passwordHashCost = 4
        configuration.demoTrackSeconds = 0.5
        configure(&configuration)
        return configuration
    }

    /// Starts the server with the demo data; `configure` changes anything else.
    public static func start(
        configure: (inout FerryServerConfiguration) -> Void = { _ in }
    ) async throws -> RunningFerryServer {
        try await FerryServer.start(configuration(configure: configure))
    }

    /// Starts a server without the demo data: no users, no documents.
    public static func startEmpty(
        configure: (inout FerryServerConfiguration) -> Void = { _ in }
    ) async throws -> RunningFerryServer {
        try await start {
            $0.seedDemo = false
            configure(&$0)
        }
    }

    /// Starts a server that keeps its data in `dataDirectory` (`server.sqlite` there), so a
    /// test can stop it and start another on the same data.
    public static func start(
        dataDirectory: String,
        configure: (inout FerryServerConfiguration) -> Void = { _ in }
    ) async throws -> RunningFerryServer {
        try await start {
            $0.dataDirectory = dataDirectory
            configure(&$0)
        }
    }

    /// Starts a server whose time is `clock`'s, for token expiry and timestamps without
    /// waiting.
    public static func start(
        clock: ServerClock,
        configure: (inout FerryServerConfiguration) -> Void = { _ in }
    ) async throws -> RunningFerryServer {
        try await start {
            $0.now = { clock.now }
            configure(&$0)
        }
    }

    /// Runs `body` with a started server (see ``start(configure:)``) and stops the server
    /// afterwards, whether `body` returned or threw.
    public static func with<T>(
        configure: (inout FerryServerConfiguration) -> Void = { _ in },
        _ body: (RunningFerryServer) async throws -> T
    ) async throws -> T {
        let server = try await start(configure: configure)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}
