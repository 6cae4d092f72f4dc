import Foundation
import SyncKernel
import Synchronization

/// Everything one run of a simulation has: the world's clock, the server, the devices and
/// the ledger of what the server applied.
public final class SimulationWorld: @unchecked Sendable {
    /// The world's time.
    public let clock: WorldClock
    /// What the server applied, key by key.
    public let ledger: ApplyLedger
    /// The devices, by number.
    public internal(set) var devices: [SimulatedDevice] = []
    /// The run's folder: the server's data and each device's.
    public let directory: String
    private let current = Mutex<(any SimulatedServer)?>(nil)
    /// When the server's last outage (`server-down`) ends or ended.
    private let outage = Mutex<Date?>(nil)
    /// The ledger's mark when the server's data was last backed up.
    private let backedUp = Mutex(0)
    /// Violations seen in the middle of a step (between a device's requests), until the run reads them.
    private let observed = Mutex<[SimulationViolation]>([])
    /// The account each queued operation was queued under, by its key (lower case), as the
    /// run first saw it.
    private let queuedUnder = Mutex<[String: String]>([:])
    private let startServer: SimulatedServerStarter
    /// Whether each restart backs the server's data up, for a restore to go back to.
    let keepsBackups: Bool

    init(directory: String, clock: WorldClock, startServer: @escaping SimulatedServerStarter, keepsBackups: Bool = false) {
        self.directory = directory
        self.clock = clock
        self.ledger = ApplyLedger(clock: clock)
        self.startServer = startServer
        self.keepsBackups = keepsBackups
    }

    /// The server now; nil while it restarts.
    public var server: (any SimulatedServer)? { current.withLock { $0 } }

    /// The server as the devices reach it: nil while it restarts or is down.
    var answering: (any SimulatedServer)? {
        if let end = outage.withLock({ $0 }), clock.now < end { return nil }
        return server
    }

    /// When the server last came back from an outage; nil while one lasts, or before any.
    var outageEnded: Date? {
        guard let end = outage.withLock({ $0 }), end <= clock.now else { return nil }
        return end
    }

    /// The server stops and starts again on its own data, and answers no device for
    /// `seconds` from now.
    func takeDown(for seconds: TimeInterval) async throws {
        try await restartServer()
        let until = clock.now.addingTimeInterval(seconds)
        // An outage under way lasts at least as long as it was to.
        outage.withLock { end in end = max(end ?? until, until) }
    }

    /// An outage under way ends now.
    func endOutage() {
        let now = clock.now
        outage.withLock { end in if let until = end, until > now { end = now } }
    }

    /// Asks the server directly, past every device's network and faults: for checks.
    public func ask(
        _ method: String,
        _ path: String,
        headers: [(String, String)] = [],
        body: Data? = nil
    ) async throws -> HTTPResponse {
        guard let server else { throw TransportFailure(reason: "the server is down") }
        return try await server.respond(method: method, path: path, headers: headers, body: body)
    }

    /// Asks the server directly with the session of `device`: what its signed-in user
    /// sees there, for checks once the world has settled.
    public func ask(_ method: String, _ path: String, as device: SimulatedDevice) async throws -> HTTPResponse {
        guard let token = try await device.runtime.credentials.accessToken() else {
            throw FerryError(.needsLogin, "device \(device.index) is not signed in")
        }
        return try await ask(method, path, headers: [("Authorization", "Bearer \(token)")])
    }

    func start(fresh: Bool) async throws {
        let server = try await startServer(directory + "/server", clock, fresh)
        current.withLock { $0 = server }
    }

    private var backup: String { directory + "/server-backup" }

    /// Copies the server's data, while it is stopped, to where `restoreServer` takes it
    /// from: the backup an operator takes at each maintenance restart.
    func backUp() throws {
        let files = FileManager.default
        try? files.removeItem(atPath: backup)
        try files.copyItem(atPath: directory + "/server", toPath: backup)
        backedUp.withLock { $0 = ledger.mark }
    }

    /// The server stops, its data is replaced by the last backup, and it starts again on
    /// it a second later: what it did since the backup (writes, sessions) is forgotten.
    /// False when there is no backup yet (the server has not restarted).
    func restoreServer() async throws -> Bool {
        let files = FileManager.default
        guard files.fileExists(atPath: backup) else { return false }
        await stopServer()
        try files.removeItem(atPath: directory + "/server")
        try files.copyItem(atPath: backup, toPath: directory + "/server")
        ledger.forget(since: backedUp.withLock { $0 })
        // It takes a second, as a restore does at least: the server numbers its changes
        // from its clock's microseconds at each opening (docs/deployment.md), which holds
        // only at fewer than one change a microsecond.
        clock.advance(by: 1)
        try await start(fresh: false)
        return true
    }

    /// Notes violations seen in the middle of a step.
    func observe(_ violations: [SimulationViolation]) {
        observed.withLock { observed in
            for violation in violations where !observed.contains(violation) { observed.append(violation) }
        }
    }

    /// The violations seen in the middle of a step since the last call.
    func takeObserved() -> [SimulationViolation] {
        observed.withLock { observed in
            defer { observed = [] }
            return observed
        }
    }

    /// Notes that the operation `key` was queued under `account`, unless it was seen before.
    func noteQueued(_ key: String, under account: String) {
        queuedUnder.withLock { if $0[key] == nil { $0[key] = account } }
    }

    /// The account the operation `key` was first seen queued under; nil when it was queued
    /// while nobody was signed in (whoever signs in next may send it), or never seen.
    func account(queuing key: String) -> String? { queuedUnder.withLock { $0[key] } }

    /// The server stops and starts again on its own data, as after a crash.
    func restartServer() async throws {
        await stopServer()
        if keepsBackups { try backUp() }
        try await start(fresh: false)
    }

    func stopServer() async {
        let server = current.withLock { $0.take() }
        await server?.stop()
    }
}
