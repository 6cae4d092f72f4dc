/// A started ``FerryServer``: its port, its faults and its lifecycle.
public final class RunningFerryServer: Sendable {
    /// The bound port (the real one when the configuration asked for port 0).
    public let port: Int
    /// The host the server listens on.
    public let host: String
    private let supervisor: ListenerSupervisor
    private let environment: ServerEnvironment

    init(port: Int, host: String, supervisor: ListenerSupervisor, environment: ServerEnvironment) {
        self.port = port
        self.host = host
        self.supervisor = supervisor
        self.environment = environment
    }

    /// `http://HOST:PORT`, e.g. `http://127.0.0.1:54321`.
    public var baseURL: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(port)"
    }

    /// Stops gracefully: requests in flight finish, then the listener and the database's
    /// connections close.
    public func stop() async {
        await supervisor.shutdown()
        await environment.close()
    }

    /// The faults in force now.
    public var faults: FaultSettings { environment.faults.settings }

    /// Replaces the injected faults (same as `PUT /admin/faults`).
    public func setFaults(_ faults: FaultSettings) {
        environment.faults.update(faults)
    }

    /// "Away" mode: closes the listening socket so connections are refused, until ``comeBack()``.
    public func goAway() async {
        environment.listener.isAway = true
        await supervisor.goAway(for: 0)
    }

    /// Ends "away" mode: listens again on the same port. Throws after ``stop()``.
    public func comeBack() async throws {
        try await supervisor.comeBack()
        environment.listener.isAway = false
    }
}
