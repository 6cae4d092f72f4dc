import Foundation
import GRDB
import Logging
import SyncKernel
import Synchronization

/// What every device of a simulation runs: the plugins, their configuration and how a
/// person signs in on it.
public struct DeviceSetup: Sendable {
    /// The plugin types the devices know.
    public var pluginTypes: [any SyncPlugin.Type]
    /// The `plugins:` and `domains:` sections of the configuration; the simulation adds
    /// the data directory, the server and the sync settings.
    public var yaml: String
    /// The accounts a person signs in with: every device starts with the first, which the
    /// workloads act as; a person may sign in with another on a device now and then.
    public var accounts: [String]
    /// Signs a person in with one of `accounts` on a device's runtime (a login through the
    /// auth plugin, say).
    public var signIn: @Sendable (FerryRuntime, _ account: String) async throws -> Void
    /// The hosts other than the Ferry server that the plugins reach (TMDB, say), by host
    /// name: answered in process, as the server is, through the same links and faults.
    public var otherHosts: [String: any SimulatedServer]
    /// `yaml` for a device set up by its configuration alone (`Simulation.Options.configuredDevice`):
    /// with the first account's username and password, which its plugins sign in with by
    /// themselves. Nil when the plugins have no such setting.
    public var configuredYAML: String?

    public init(
        pluginTypes: [any SyncPlugin.Type],
        yaml: String,
        configuredYAML: String? = nil,
        otherHosts: [String: any SimulatedServer] = [:],
        accounts: [String],
        signIn: @escaping @Sendable (FerryRuntime, _ account: String) async throws -> Void
    ) {
        precondition(!accounts.isEmpty, "a simulation needs an account to sign in with")
        self.pluginTypes = pluginTypes
        self.yaml = yaml
        self.configuredYAML = configuredYAML
        self.otherHosts = otherHosts
        self.accounts = accounts
        self.signIn = signIn
    }
}

/// One simulated device: a Ferry runtime on its own store, clock and network, which can
/// die at any step and start again on what its store kept.
public final class SimulatedDevice: @unchecked Sendable {
    /// How one pass of the runner ended.
    enum PassEnd: Sendable {
        case finished
        case failed(String)
        case crashed
    }

    /// The device's number in the simulation, from 0.
    public let index: Int
    /// Whether it is set up by its configuration alone: its plugins sign in by themselves
    /// (`DeviceSetup.configuredYAML`), and no person signs in at its start.
    public let isConfigured: Bool
    /// Its folder: the store and the plugins' files.
    public let directory: String
    /// Its clock, off the world's by its skew.
    public let clock: DeviceClock
    let network: SimulatedNetwork
    private let connectivity = ManualConnectivity()
    private let setup: DeviceSetup
    private let random: Mutex<SeededRandom>
    private let ledger: ApplyLedger
    /// The requests that killed the device (a pass may send several at once), each
    /// suspended until its life is over; `over` once `stop` let them go.
    private let dying = Mutex<(over: Bool, requests: [CheckedContinuation<Void, Never>])>((false, []))
    /// The step waiting for the work of this life to end.
    private let waiting = Mutex<CheckedContinuation<PassEnd, Never>?>(nil)
    private let spins = Mutex<[String]>([])
    /// The task of the last pass.
    private var passTask: Task<Void, Never>?
    /// The runtime of the current life of the device.
    public private(set) var runtime: FerryRuntime!
    private var engine: SyncEngine!
    private var lives = 0
    /// Which life of the device this is: 1 for the first, one more for each start.
    public var life: Int { lives }
    /// Whether the disk is full: set again on each new life, as the disk stays full.
    private(set) var diskFull = false
    private var link = SimulationEvent.NetworkChange.unmetered
    /// Since when (in the world's time) the loop's turns have found the remote unreachable:
    /// the first turn of this life that did, after one that did not; nil while it is reachable.
    private(set) var unreachableSince: Date? {
        didSet { if unreachableSince != oldValue { setBack = 0 } }
    }
    /// How far the device's clock was set back since `unreachableSince`: the loop's
    /// deadlines, on that clock, come up to that much later in the world's time.
    private(set) var setBack: TimeInterval = 0

    init(
        index: Int,
        configured: Bool = false,
        directory: String,
        world: WorldClock,
        seed: UInt64,
        setup: DeviceSetup,
        ledger: ApplyLedger,
        server: @escaping @Sendable () -> (any SimulatedServer)?,
        restartServer: @escaping @Sendable () async throws -> Void
    ) {
        self.index = index
        self.isConfigured = configured && setup.configuredYAML != nil
        self.directory = directory
        self.clock = DeviceClock(world: world)
        self.setup = setup
        self.ledger = ledger
        self.random = Mutex(SeededRandom(seed: seed))
        self.network = SimulatedNetwork(
            server: server,
            otherHosts: setup.otherHosts,
            restartServer: restartServer,
            ledger: ledger,
            clock: world
        )
        network.onCrash { [unowned self] in await self.dieInFlight() }
    }

    /// Opens the store and builds the runtime: the device's first life, or the next one.
    func start() async throws {
        lives += 1
        unreachableSince = nil
        dying.withLock { $0 = (false, []) }
        let configuration = try FerryConfiguration.parse(
            """
            data_dir: \(directory)
            server: http://server.simulated
            log_level: critical
            sync:
              concurrency: 1
              batch_size: 20
            \(isConfigured ? setup.configuredYAML ?? setup.yaml : setup.yaml)
            """,
            file: "\(directory)/config.yaml"
        )
        var options = FerryRuntime.Options()
        options.clock = clock
        if runsLoop {
            // The loop finds its link as `ferry run` does: the real probe, over the device's
            // link, and the interfaces, as `setNetwork` lays them out.
            options.networkInterfaces = interfaces
            try writeInterfaces()
        } else {
            options.connectivity = connectivity
        }
        options.executor = network.link(life: lives)
        options.logger = Logger(label: "ferry.sim", factory: { _ in SwiftLogNoOpLogHandler() })
        options.random = { [unowned self] in random.withLock { Double.random(in: 0..<1, using: &$0) } }
        // The operations of a batch take turns: what they do, and in which order their
        // requests meet the faults, depends on the seed, never on how tasks were scheduled.
        options.batching = .inTurn
        runtime = try await FerryRuntime.open(
            configuration: configuration,
            pluginTypes: setup.pluginTypes,
            options: options
        )
        engine = SyncEngine(runtime: runtime, owner: LeaseOwner(host: "simulated-device-\(index)", pid: Int32(lives)))
        if diskFull { try await fillDisk(true) }
    }

    /// A person signs in with `account`: the first of the set-up's unless told otherwise.
    func signIn(as account: String? = nil) async throws {
        try await network.asPerson { try await setup.signIn(runtime, account ?? setup.accounts[0]) }
    }

    /// Whether the device runs the runner's loop (`ferry run`), one turn a sync, rather
    /// than passes (`ferry run --once`, an app brought to the front): the odd devices do.
    public var runsLoop: Bool { index % 2 == 1 }

    /// What the runner does when the simulation lets it: one pass, or one turn of its loop
    /// (``runsLoop``). Returns how it ended.
    func sync() async -> PassEnd {
        guard runsLoop else { return await pass() }
        let engine = self.engine!
        return await run {
            let wake = try await engine.turn()
            let now = self.clock.now()
            if await engine.connectivity?.reachable == false {
                if self.unreachableSince == nil { self.unreachableSince = self.clock.world.now }
            } else {
                self.unreachableSince = nil
            }
            if wake <= now {
                self.spins.withLock {
                    $0.append("its loop asked to wake at \(wake), not after the turn's end at \(now)")
                }
            }
        }
    }

    /// One pass of the runner, as `ferry run --once` does it; returns how it ended.
    func pass() async -> PassEnd {
        let engine = self.engine!
        return await run { _ = try await engine.runOnce() }
    }

    /// The turns of the loop since the last call that would have started the next one at
    /// once: a loop that spins, taking a core while it waits.
    func takeSpins() -> [String] {
        spins.withLock { spins in
            defer { spins = [] }
            return spins
        }
    }

    /// Runs `work` (a pass, a person's command) as this life of the device; returns how it
    /// ended, `crashed` as soon as a fault killed the device in one of its requests.
    func run(_ work: @escaping @Sendable () async throws -> Void) async -> PassEnd {
        await withCheckedContinuation { continuation in
            waiting.withLock { $0 = continuation }
            passTask = Task {
                let end: PassEnd
                do {
                    try await work()
                    end = .finished
                } catch {
                    end = .failed("\(error)")
                }
                self.endPass(end)
            }
        }
    }

    /// Tells the step waiting for this life how it ended; false when none was waiting.
    @discardableResult
    private func endPass(_ end: PassEnd) -> Bool {
        guard let step = waiting.withLock({ $0.take() }) else { return false }
        step.resume(returning: end)
        return true
    }

    /// A fault killed the device in the middle of a request: the process dies here, the
    /// pass ends as crashed, and this task waits until `stop` lets it unwind.
    ///
    /// What else the pass was doing beside this request (another operation of its batch
    /// matching a title on TMDB, a download) reaches neither the network nor the store from
    /// now on, as in a process that died: a request throws, a read or a write throws.
    /// Left running until the harness's `stop`, it reached the server or not depending on
    /// how threads were scheduled, and read the store while `stop` closed it.
    ///
    /// A request that no step waits for (a check between steps asked the device) only fails.
    private func dieInFlight() async {
        guard waiting.withLock({ $0 != nil }) else { return }
        network.endLife()
        try? runtime?.store.close()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let over = dying.withLock { dying in
                if !dying.over { dying.requests.append(continuation) }
                return dying.over
            }
            // A request that died as its life was ending has nothing to wait for.
            if over { return continuation.resume() }
            endPass(.crashed)
        }
    }

    /// The process dies and starts again on what its store kept. Its store is closed
    /// first, so that a pass that died in a request, let go then, can write nothing more
    /// as it unwinds, and that pass has ended before the next life starts.
    func restart() async throws {
        await stop()
        try await start()
    }

    /// The process ends: its store closes, then the last pass, which may have died in
    /// its requests while other parts of it still ran, is let go and awaited. Nothing of a
    /// dead life runs once this returns: its reads and writes since the close threw, and
    /// its requests reach nothing.
    func stop() async {
        network.endLife()
        try? runtime?.store.close()
        let requests = dying.withLock { dying in
            defer { dying = (true, []) }
            return dying.requests
        }
        for request in requests { request.resume() }
        await passTask?.value
        passTask = nil
        runtime = nil
        engine = nil
    }

    /// Sets how far the device's clock is off the world's (a skew).
    func setSkew(_ seconds: TimeInterval) {
        if unreachableSince != nil { setBack += max(0, clock.skew - seconds) }
        clock.setSkew(seconds)
    }

    /// Changes the device's link.
    func setNetwork(_ change: SimulationEvent.NetworkChange) {
        switch change {
        case .offline:
            network.isOnline = false
            connectivity.set(.offline)
        case .online:
            if !network.isOnline { network.cut() }
            network.isOnline = true
            connectivity.set(Self.state(metered: link == .metered))
        case .metered, .unmetered:
            link = change
            network.isMetered = change == .metered
            if network.isOnline { connectivity.set(Self.state(metered: change == .metered)) }
        }
        if runsLoop { try? writeInterfaces() }
    }

    /// Where the probe of a device that runs the loop reads its links: beside its data
    /// folder, not in it (whose every file is its owner's only, and checked to be).
    private var interfaces: String { directory + ".net" }

    /// Lays the link out as Linux's `/sys/class/net` shows it: `wlan0` (Wi-Fi) up when the
    /// device is online and unmetered, `wwan0` (cellular) up when online and metered.
    private func writeInterfaces() throws {
        for (name, up, wireless) in [
            ("wlan0", network.isOnline && !network.isMetered, true),
            ("wwan0", network.isOnline && network.isMetered, false),
        ] {
            let folder = "\(interfaces)/\(name)"
            try FileManager.default.createDirectory(
                atPath: wireless ? folder + "/wireless" : folder,
                withIntermediateDirectories: true
            )
            try (up ? "up\n" : "down\n").write(toFile: folder + "/operstate", atomically: false, encoding: .utf8)
        }
    }

    private static func state(metered: Bool) -> ConnectivityState {
        ConnectivityState(
            reachable: true,
            interface: metered ? .cellular : .wifi,
            metered: metered,
            source: "simulated"
        )
    }

    /// Every request the device tried to send, in order, with its link at the time.
    public var sentRequests: [SentRequest] { network.sent }

    /// Fills the disk (no page more for the store) or gives it room again.
    func fillDisk(_ full: Bool) async throws {
        diskFull = full
        try await runtime.store.write { db in
            if full {
                let pages = try Int.fetchOne(db.cachedStatement(sql: "PRAGMA page_count")) ?? 1
                try db.execute(sql: "PRAGMA max_page_count = \(pages)")
            } else {
                try db.cachedStatement(sql: "PRAGMA max_page_count = 4294967294").execute()
            }
        }
    }

    /// Whether any operation waits to be sent (`pending`), due or not.
    func hasPendingWork() async throws -> Bool {
        try await runtime.store.read { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM kernel_operations WHERE state = 'pending')")
            ) ?? false
        }
    }

    /// The device's outbox, oldest first, as its store holds it now.
    public func operations() async throws -> [QueuedOperation] {
        try await runtime.store.read { db in
            try QueuedOperation.fetchAll(db.cachedStatement(sql: "SELECT * FROM kernel_operations ORDER BY seq"))
        }
    }
}
