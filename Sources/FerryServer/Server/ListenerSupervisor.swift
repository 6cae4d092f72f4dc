import Hummingbird
import Logging
import ServiceLifecycle

/// Owns the listening Hummingbird application: starts it, stops it gracefully, and restarts it
/// on the same port (the "away" fault).
actor ListenerSupervisor {
    /// The listener could not start.
    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    private let responder: RouterResponder<FerryRequestContext>
    private let host: String
    private let logger: Logger
    private var serviceGroup: ServiceGroup?
    private var task: Task<Void, any Error>?
    private(set) var port: Int
    private var awayGeneration = 0
    /// Set by ``shutdown()``: the listener never comes back after it.
    private var isShutDown = false

    init(responder: RouterResponder<FerryRequestContext>, host: String, port: Int, logger: Logger) {
        self.responder = responder
        self.host = host
        self.port = port
        self.logger = logger
    }

    /// Starts listening and returns once the socket accepts connections.
    func listen() async throws {
        guard !isShutDown else { throw StartError(description: "FerryServer was stopped; start a new one.") }
        guard task == nil else { return }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), reuseAddress: true),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let group = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger)
        )
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        for await bound in ports {
            self.port = bound
            self.serviceGroup = group
            self.task = task
            return
        }
        do {
            try await task.value
        } catch {
            throw StartError(description: "FerryServer could not listen on \(host):\(port): \(error)")
        }
        throw StartError(description: "FerryServer stopped before listening on \(host):\(port).")
    }

    /// Stops listening: in-flight requests finish, then the socket closes.
    func stopListening() async {
        guard let group = serviceGroup, let task else { return }
        serviceGroup = nil
        self.task = nil
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }

    /// Stops listening for good (a pending "away" timer will not bring it back).
    func shutdown() async {
        isShutDown = true
        await stopListening()
    }

    /// Stops listening for `seconds` (connections are refused), then listens again on the same port.
    func goAway(for seconds: Double) async {
        awayGeneration += 1
        let generation = awayGeneration
        await stopListening()
        guard seconds > 0 else { return }
        try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
        if generation == awayGeneration, !isShutDown {
            try? await listen()
        }
    }

    /// Listens again after ``goAway(for:)`` or ``stopListening()``.
    func comeBack() async throws {
        awayGeneration += 1
        try await listen()
    }

    var isListening: Bool { task != nil }
}
