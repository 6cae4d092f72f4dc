import Foundation
import SyncKernel

/// A deterministic simulation of devices syncing with a server through faults: from one
/// seed, a list of events (people's actions, passes of the runners, time, faults, crashes)
/// is drawn, run on virtual time, and checked against the invariants every sync must keep.
///
/// ```swift
/// let simulation = Simulation(options: .init(seed: 42), setup: setup, server: start, workloads: { [Notes()] })
/// let verdict = await simulation.run(simulation.events())
/// if !verdict.passed {
///     let (shortest, why) = await simulation.shrink(simulation.events(), failing: verdict)
/// }
/// ```
///
/// Checked during the run: no write applied twice on the server (`applied-twice`), the
/// operations of one entity applied in the order they were queued (`entity-order`).
/// Checked once faults stop, people sign in again and time passes: nobody signed out whose
/// session the server did not end (`signed-out`), every queue drained but for dead letters
/// a person must see (`not-drained`, `needs-person`), then each workload's own checks
/// (nothing acknowledged lost, every device showing the server's state).
public struct Simulation: Sendable {
    /// How a run is drawn.
    public struct Options: Sendable {
        /// The seed every choice follows from.
        public var seed: UInt64
        /// How many devices.
        public var devices: Int
        /// How many events are drawn; a drawn sync is now and then followed by a second
        /// process's pass (`beside`), an event more.
        public var steps: Int
        /// Whether faults are drawn (without, only actions, passes and time).
        public var faults: Bool
        /// Whether the server is now and then restored from a backup (`restore-server`),
        /// where every workload's checks allow for it (`SimulationWorkload.followsRestores`).
        public var restores: Bool
        /// The device set up by its configuration alone, if any: a username and password
        /// the auth plugin signs in with by itself (`DeviceSetup.configuredYAML`, as the
        /// shipped config.yaml has them), no person signing in, and nothing sent before
        /// the run's first `sync` of it, so that the writes made before may all go in one
        /// delivery that has no session yet. By default the last of three or more devices
        /// in one run of seven (seeds 5, 12, 19, …): the other seeds run as they ran before
        /// there was one.
        public var configuredDevice: Int?

        public init(seed: UInt64, devices: Int = 3, steps: Int = 200, faults: Bool = true, restores: Bool = false) {
            self.seed = seed
            self.devices = devices
            self.steps = steps
            self.faults = faults
            self.restores = restores
            self.configuredDevice = devices >= 3 && seed % 7 == 5 ? devices - 1 : nil
        }
    }

    public let options: Options
    let setup: DeviceSetup
    let startServer: SimulatedServerStarter
    let workloads: @Sendable () -> [any SimulationWorkload]

    /// A simulation of `options.devices` devices set up as `setup`, on the server
    /// `server` starts, with a fresh set of `workloads` for each run.
    public init(
        options: Options,
        setup: DeviceSetup,
        server: @escaping SimulatedServerStarter,
        workloads: @escaping @Sendable () -> [any SimulationWorkload]
    ) {
        self.options = options
        self.setup = setup
        self.startServer = server
        self.workloads = workloads
    }

    /// The events the seed draws.
    public func events() -> [SimulationEvent] {
        var random = SeededRandom(seed: options.seed)
        // Drawn apart, so that another account leaves every other draw of a seed as it was.
        var accounts = SeededRandom(seed: options.seed ^ 0xACC0_0A75)
        var outages = SeededRandom(seed: options.seed ^ 0x0D0A_4E55)
        var restores = SeededRandom(seed: options.seed ^ 0x4E57_0BAC)
        var damages = SeededRandom(seed: options.seed ^ 0xDA3A_6E5D)
        var besides = SeededRandom(seed: options.seed ^ 0xBE51_DE00)
        var oversize = SeededRandom(seed: options.seed ^ 0x0B16_A45E)
        let workloads = workloads()
        // A restore loses acknowledged writes by design: drawn only where every workload
        // can tell those from writes lost otherwise.
        let restoring = options.restores && workloads.allSatisfy(\.followsRestores)
        let devices = options.devices
        var events: [SimulationEvent] = []
        enum Kind { case act, sync, wait, network, fault, crash, restart, revoke, signIn, disk, skew }
        let kinds: [(Kind, Int)] =
            [(.act, 40), (.sync, 25), (.wait, 14)]
            + (options.faults
                ? [(.network, 8), (.fault, 10), (.crash, 2), (.restart, 1), (.revoke, 1), (.signIn, 1), (.disk, 1), (.skew, 1)]
                : [])
        for _ in 0..<options.steps {
            let device = Int.random(in: 0..<devices, using: &random)
            switch random.weighted(kinds) {
            case .act:
                let workload = workloads[Int.random(in: 0..<workloads.count, using: &random)]
                events.append(.act(device: device, workload: workload.name, action: workload.draw(device: device, using: &random)))
            case .sync:
                events.append(.sync(device: device))
                // Now and then, drawn apart as accounts are, a `ferry run --once` beside it.
                if besides.chance(0.08) { events.append(.beside(device: Int.random(in: 0..<devices, using: &besides))) }
            case .wait:
                // Mostly the time between a person's taps (0.2 to 60 s, to the millisecond,
                // as many under a second as between 1 and 5: two devices' writes in one
                // second); now and then a device that sleeps overnight or stays away for
                // days (refresh tokens last 30).
                let tap = (exp(Double.random(in: log(0.2)...log(60), using: &random)) * 1000).rounded() / 1000
                let seconds: Double = random.weighted([
                    (tap, 60),
                    (Double(Int.random(in: 60...3600, using: &random)), 23),
                    (Double(Int.random(in: 3600...86400, using: &random)), 12),
                    (Double(Int.random(in: 86400...259_200, using: &random)), 5),
                ])
                events.append(.wait(seconds: seconds))
            case .network:
                events.append(.network(device: device, SimulationEvent.NetworkChange.allCases.randomElement(using: &random)!))
            case .fault:
                let fault = SimulationEvent.RequestFault.drawnTogether.randomElement(using: &random)!
                // Now and then, drawn apart as accounts are, an answer past the device's cap.
                events.append(.fault(device: device, oversize.chance(0.1) ? .oversizeAnswer : fault))
            case .crash:
                // Now and then, drawn apart as accounts are, a crash that damages the store.
                if damages.chance(0.2) {
                    events.append(.damageStore(device: device, SimulationEvent.StoreDamage.allCases.randomElement(using: &damages)!))
                } else {
                    events.append(.crash(device: device))
                }
            case .restart:
                // As often an outage of a few seconds as a restart, drawn apart as accounts
                // are; now and then, a restore from the backup of the last restart.
                if restoring, restores.chance(0.3) {
                    events.append(.restoreServer)
                } else if outages.chance(0.5) {
                    events.append(.restartServer)
                } else {
                    let seconds = (exp(Double.random(in: log(0.5)...log(30), using: &outages)) * 1000).rounded() / 1000
                    events.append(.serverDown(seconds: seconds))
                }
            case .revoke: events.append(.revokeSession(device: device))
            case .signIn:
                let other = setup.accounts.count > 1 && accounts.chance(0.5)
                let account = other ? setup.accounts[1...].randomElement(using: &accounts) : nil
                events.append(.signIn(device: device, account: account))
            case .disk: events.append(.diskFull(device: device, random.chance(0.5)))
            case .skew: events.append(.skew(device: device, seconds: Double(Int.random(in: -7200...7200, using: &random))))
            }
        }
        return events
    }

    /// Where runs keep their stores: in memory (`/dev/shm`) where there is such a folder,
    /// as a run's fsyncs are not what it checks, else the temporary folder.
    static var scratch: String {
        FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : FileManager.default.temporaryDirectory.path
    }

    /// Runs `events` on a new world and returns what held. `log`, when given, hears each
    /// step and what came of it.
    ///
    /// The run's tasks, those of its devices' processes and of the server, all run on one
    /// thread of the run's own, one at a time, in the order they were queued
    /// (`RunThread`): the sends of a device that race each other interleave the same way
    /// every time the seed runs.
    public func run(_ events: [SimulationEvent], log: (@Sendable (String) -> Void)? = nil) async -> SimulationVerdict {
        let thread = RunThread()
        defer { thread.stop() }
        return await withTaskExecutorPreference(thread) {
            await TaskPlacement.$executor.withValue(thread) { await runHere(events, log: log) }
        }
    }

    private func runHere(_ events: [SimulationEvent], log: (@Sendable (String) -> Void)?) async -> SimulationVerdict {
        let folder = Self.scratch + "/ferry-sim-\(options.seed)-\(UUID().uuidString.prefix(8))"
        let world = SimulationWorld(
            directory: folder,
            clock: WorldClock(),
            startServer: startServer,
            keepsBackups: options.restores
        )
        var run = SimulationRun(simulation: self, world: world, workloads: workloads(), log: log)
        let verdict = await run.execute(events)
        for device in world.devices { await device.stop() }
        await world.stopServer()
        try? FileManager.default.removeItem(atPath: folder)
        return verdict
    }
}

/// What a run found.
public struct SimulationVerdict: Sendable, Equatable, Codable {
    /// The invariants that failed (the run stops at the first step that breaks one).
    public var violations: [SimulationViolation]
    /// How many events ran.
    public var steps: Int
    /// The virtual time the run spanned, in seconds, quiescence included.
    public var seconds: Double
    /// A line per step and its outcome: the trace.
    public var trace: [String]

    public init(violations: [SimulationViolation], steps: Int, seconds: Double, trace: [String]) {
        self.violations = violations
        self.steps = steps
        self.seconds = seconds
        self.trace = trace
    }

    /// Whether every invariant held.
    public var passed: Bool { violations.isEmpty }

    /// Whether this run failed the same way as `other`: one of the same invariants broke.
    public func failsLike(_ other: SimulationVerdict) -> Bool {
        let wanted = Set(other.violations.map(\.invariant))
        return violations.contains { wanted.contains($0.invariant) }
    }
}
