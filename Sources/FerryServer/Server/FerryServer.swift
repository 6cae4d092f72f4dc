import Logging
import ServiceLifecycle

/// Ferry's reference backend: the HTTP contract of `docs/protocol.md` over SQLite or PostgreSQL.
///
/// ```swift
/// let server = try await FerryServer.start(FerryServerConfiguration(port: 0, seedDemo: true))
/// print(server.baseURL)   // http://127.0.0.1:54321
/// await server.stop()
/// ```
public enum FerryServer {
    /// Starts the server and returns once it accepts connections.
    public static func start(_ configuration: FerryServerConfiguration) async throws -> RunningFerryServer {
        let metrics = ServerMetrics()
        let database = try await ServerDatabase.open(configuration, metrics: metrics)
        let environment = ServerEnvironment(configuration: configuration, database: database, metrics: metrics)
        do {
            return try await start(environment)
        } catch {
            await database.close()
            throw error
        }
    }

    /// Seeds and starts listening, over a database already open.
    private static func start(_ environment: ServerEnvironment) async throws -> RunningFerryServer {
        let configuration = environment.configuration
        if configuration.seedDemo {
            try await DemoSeed.load(into: environment)
        }
        let responder = ServerRoutes.router(environment).buildResponder()
        environment.subrequests.install(responder)
        let supervisor = ListenerSupervisor(
            responder: responder,
            host: configuration.host,
            port: configuration.port,
            logger: configuration.logger
        )
        try await supervisor.listen()
        environment.listener.install { [weak supervisor, weak environment] seconds in
            guard let supervisor, let environment else { return }
            environment.listener.isAway = true
            await supervisor.goAway(for: seconds)
            environment.listener.isAway = false
        }
        let port = await supervisor.port
        configuration.logger.info(
            "FerryServer listening",
            metadata: ["host": "\(configuration.host)", "port": "\(port)"]
        )
        return RunningFerryServer(
            port: port,
            host: configuration.host,
            supervisor: supervisor,
            environment: environment
        )
    }

    /// Runs until cancelled or until SIGINT / SIGTERM (for `ferry serve`), then stops gracefully.
    public static func run(_ configuration: FerryServerConfiguration) async throws {
        let group = ServiceGroup(
            configuration: .init(
                services: [FerryServerService(configuration: configuration)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: configuration.logger
            )
        )
        try await group.run()
    }
}

/// Runs a server as a service: start, wait for graceful shutdown (or cancellation), stop.
///
/// Its description is its name alone: the service group logs its services, and the
/// configuration holds secrets (an admin token, a database URL).
struct FerryServerService: Service, CustomStringConvertible {
    var description: String { "FerryServer" }

    let configuration: FerryServerConfiguration

    func run() async throws {
        let server = try await FerryServer.start(configuration)
        try? await gracefulShutdown()
        await server.stop()
    }
}
