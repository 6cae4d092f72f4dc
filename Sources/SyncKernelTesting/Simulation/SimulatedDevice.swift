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
/// die at any step and start again on what its store kept; now and then a second process
/// (a `ferry` command) opens the same store beside it.
public final class SimulatedDevice: @unchecked Sendable {
    /// How one pass of the runner ended.
    typealias PassEnd = DeviceProcess.End

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
    private let spins = Mutex<[String]>([])
    /// The process of the current life of the device: the app, or `ferry run`.
    private var app: DeviceProcess?
    /// A second process on the device's store while it runs (``passBeside()``).
    private var beside: DeviceProcess?
    /// The runtime of the current life of the device.
    public var runtime: FerryRuntime! { app?.runtime }
    private var lives = 0
    /// How many processes have run beside the device's own.
    private var besides = 0
    /// Which life of the device this is: 1 for the first, one more for each start.
    public var life: Int { lives }
    /// Whether the disk is full: set again on each new life, as the disk stays full.
    private(set) var diskFull = false
    private var link = SimulationEvent.NetworkChange.unmetered
    /// The device's configuration, once read (``configuration()``).
    private var parsed: FerryConfiguration?
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
        network.onCrash { [unowned self] link in
            for process in [self.app, self.beside] where process?.link == link { await process?.dieInFlight() }
        }
    }

    /// Opens the store and builds the runtime: the device's first life, or the next one.
    ///
    /// The first life's store is new, and a second process opens it at the same moment and
    /// exits (a person running `ferry status` as the app first starts): both create the
    /// store's tables or find them, and neither may fail (Kernel v2 4).
    func start() async throws {
        lives += 1
        unreachableSince = nil
        let link = network.openLink(newLife: true)
        let owner = LeaseOwner(host: "simulated-device-\(index)", pid: Int32(lives))
        // Read before two processes open the store at once, which both read it.
        _ = try configuration()
        guard lives == 1 else {
            app = try await open(link: link, owner: owner)
            return
        }
        let other = network.openLink(newLife: false)
        // Off the run's one thread (`RunThread`), on Swift's pool: the two opens race for
        // real. Both must succeed, whichever gets where first, so the trace stays the same.
        let (mine, theirs) = await withTaskExecutorPreference(globalConcurrentExecutor) {
            async let beside = attempt { try await self.open(link: other, owner: LeaseOwner(host: "simulated-device-\(self.index)", pid: 0)) }
            let mine = await attempt { try await self.open(link: link, owner: owner) }
            return (mine, await beside)
        }
        if case .success(let process) = theirs { await process.stop() }
        if case .success(let process) = mine { app = process }
        for (who, result) in [("the device's own process", mine), ("a second process", theirs)] {
            if case .failure(let error) = result { throw OpenedTogether(device: index, who: who, error: error) }
        }
    }

    /// What `body` opened, or why it could not.
    private func attempt(_ body: @Sendable () async throws -> DeviceProcess) async -> Result<DeviceProcess, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    /// One of two processes opening a device's new store at once failed.
    struct OpenedTogether: Error, CustomStringConvertible {
        let device: Int
        let who: String
        let error: any Error
        var description: String {
            "device \(device): two processes opened its new store at once, and \(who) failed: \(error)"
        }
    }

    /// Opens the store and builds a runtime on it for a process of the device sending
    /// through `link`.
    private func open(link: Int, owner: LeaseOwner) async throws -> DeviceProcess {
        let configuration = try self.configuration()
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
        options.executor = network.executor(of: link)
        options.logger = Logger(label: "ferry.sim", factory: { _ in SwiftLogNoOpLogHandler() })
        options.random = { [unowned self] in random.withLock { Double.random(in: 0..<1, using: &$0) } }
        // The operations of a batch take turns: what they do, and in which order their
        // requests meet the faults, depends on the seed, never on how tasks were scheduled.
        options.batching = .inTurn
        let runtime = try await FerryRuntime.open(
            configuration: configuration,
            pluginTypes: setup.pluginTypes,
            options: options
        )
        let process = DeviceProcess(runtime: runtime, owner: owner, link: link, network: network)
        if diskFull {
            do {
                try await Self.fillDisk(true, of: runtime.store)
            } catch {
                await process.stop()
                throw error
            }
        }
        return process
    }

    /// The device's configuration, read once: every process of the device reads the same
    /// file. It sends up to eight deliveries at once, as shipped (`sync.concurrency`), which
    /// race each other the same way each time a seed runs (`RunThread`). Its answers are
    /// capped at 1 MiB (`sync.max_answer`), far above any the simulation's server gives, so
    /// that an answer past the cap (`oversize-answer`) costs little to make.
    private func configuration() throws -> FerryConfiguration {
        if let parsed { return parsed }
        let configuration = try FerryConfiguration.parse(
            """
            data_dir: \(directory)
            server: http://server.simulated
            log_level: critical
            sync:
              concurrency: 8
              batch_size: 20
              max_answer: 1MiB
            \(isConfigured ? setup.configuredYAML ?? setup.yaml : setup.yaml)
            """,
            file: "\(directory)/config.yaml"
        )
        network.answerCap = Int(configuration.kernel.sync.maxAnswer.bytes)
        parsed = configuration
        return configuration
    }

    /// A second process on the device (`ferry run --once` from a terminal while the app
    /// runs): it opens the store beside the device's own process, sends what is due and
    /// pulls, and exits; or it dies in one of its requests (a fault), and the leases it
    /// held stay until they run out, for the device's own runner to take back.
    func passBeside() async throws -> PassEnd {
        besides += 1
        let link = network.openLink(newLife: false)
        let process = try await open(link: link, owner: LeaseOwner(host: "simulated-device-\(index)", pid: Int32(1000 + besides)))
        beside = process
        let end = await process.run { _ = try await process.engine.runOnce() }
        await process.stop()
        beside = nil
        return end
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
        let engine = app!.engine
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
        let engine = app!.engine
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
        await app!.run(work)
    }

    /// The process dies and starts again on what its store kept. Its store is closed
    /// first, so that a pass that died in a request, let go then, can write nothing more
    /// as it unwinds, and that pass has ended before the next life starts.
    func restart() async throws {
        await stop()
        try await start()
    }

    /// The process ends (and one beside it, if any): its store closes, then its last pass,
    /// which may have died in its requests while other parts of it still ran, is let go
    /// and awaited. Nothing of a dead life runs once this returns.
    func stop() async {
        network.endAll()
        for process in [beside, app] { await process?.stop() }
        beside = nil
        app = nil
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
        try await Self.fillDisk(full, of: runtime.store)
    }

    /// Fills the disk for the connection of `store`, or gives it room again.
    private static func fillDisk(_ full: Bool, of store: FerryStore) async throws {
        try await store.write { db in
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
