import Foundation
import GRDB
import SyncKernel

/// One run of a simulation: sets the world up, steps through the events, lets the world
/// settle, and checks.
struct SimulationRun {
    let simulation: Simulation
    let world: SimulationWorld
    let workloads: [any SimulationWorkload]
    let log: (@Sendable (String) -> Void)?
    private var trace: [String] = []
    var violations: [SimulationViolation] = []
    /// Each queued operation the run has seen, by its id (the `Idempotency-Key` it is sent
    /// with): where it came from and its place in its device's queue.
    var queued: [String: (device: Int, plugin: String, entity: String, seq: Int64)] = [:]
    /// How far into the ledger's order the entity-order check has read.
    var orderRead = 0
    var lastApplied: [String: Int64] = [:]
    /// Devices whose session the server ended on purpose, until a person signs in there.
    private var revoked: Set<Int> = []
    /// Devices the server refused a valid token of (`refuse-token`): a device may end its
    /// session on such a refusal, and a person then signs in there.
    private var refused: Set<Int> = []
    /// How many torn writes of the ledger have been reported.
    var tornRead = 0
    /// The account the workloads act as (its id, as the devices' credentials give it).
    private var actingAccount: String?
    /// A queued operation as the run last saw it; `at`, when a person's action last wrote it
    /// (by the device's clock; nil when no action did).
    typealias Written = (id: UUID, payload: Data, queuedAt: Date, at: Date?)
    /// By device, each queued operation as the run last saw it, by its place in the queue.
    var written: [Int: [Int64: Written]] = [:]
    /// The conflict records the run has checked, by their ids.
    var checkedConflicts: Set<String> = []
    /// A device's life and its store's stamp (`look(at:)`).
    struct Look: Equatable {
        var life: Int
        var stamp: Int64
    }
    /// By device, how its store was when its conflicts and files were last looked at.
    var lookedAt: [Int: Look] = [:]
    /// By device, how its store was when its queue was last remembered.
    var rememberedAt: [Int: Look] = [:]
    /// By device, how its store was when its resends were last looked at.
    var resentLookedAt: [Int: Look] = [:]

    init(
        simulation: Simulation,
        world: SimulationWorld,
        workloads: [any SimulationWorkload],
        log: (@Sendable (String) -> Void)?
    ) {
        self.simulation = simulation
        self.world = world
        self.workloads = workloads
        self.log = log
    }

    mutating func execute(_ events: [SimulationEvent]) async -> SimulationVerdict {
        let start = world.clock.now
        var steps = 0
        do {
            try await setUp()
            for event in events {
                steps += 1
                let deaths = world.ledger.serverDeaths
                let refusals = refusedPastCap
                var outcome = await perform(event)
                if world.ledger.serverDeaths > deaths {
                    outcome = Self.adding("the server died before it recorded an answer; started again", to: outcome)
                }
                if refusedPastCap > refusals {
                    outcome = Self.adding("an answer past the device's sync.max_answer was not read", to: outcome)
                }
                note("\(event)", outcome)
                try await checkLedger()
                try await checkChangedDevices()
                for workload in workloads { violations += try await workload.checkStep(world) }
                try await checkResends()
                try await checkShown()
                checkLinks()
                if !violations.isEmpty { break }
            }
            if violations.isEmpty { try await settle() }
        } catch let failure as SimulatedDevice.OpenedTogether {
            violations.append(SimulationViolation("opened-together", Self.short(failure, 300)))
        } catch {
            violations.append(SimulationViolation("harness", "the simulation could not go on: \(error)"))
        }
        // Sends race within a device (`sync.concurrency` as shipped): how far they did.
        note("-- at most \(world.devices.map(\.network.mostInFlight).max() ?? 0) requests of one device at once", nil)
        return SimulationVerdict(
            violations: violations.map { SimulationViolation($0.invariant, Self.withoutRandomIDs($0.detail)) },
            steps: steps,
            seconds: world.clock.now.timeIntervalSince(start),
            trace: trace
        )
    }

    /// How many answers past their device's cap the devices refused to read.
    private var refusedPastCap: Int { world.devices.reduce(0) { $0 + $1.network.refusedPastCap } }

    private static func adding(_ more: String, to outcome: String?) -> String {
        (outcome.map { $0 + "; " } ?? "") + more
    }

    private mutating func note(_ step: String, _ outcome: String?) {
        let line = outcome.map { "\(step)  -> \($0)" } ?? step
        trace.append(line)
        log?(line)
    }

    private mutating func setUp() async throws {
        try FileManager.default.createDirectory(atPath: world.directory, withIntermediateDirectories: true)
        log?("setup: starting the server")
        try await world.start(fresh: true)
        // A run that may restore the server has a backup of its demo data from the start.
        if world.keepsBackups, workloads.allSatisfy(\.followsRestores) { try await world.restartServer() }
        for index in 0..<simulation.options.devices {
            let device = SimulatedDevice(
                index: index,
                configured: index == simulation.options.configuredDevice,
                directory: world.directory + "/device-\(index)",
                world: world.clock,
                seed: simulation.options.seed &+ UInt64(index + 1) &* 0x9E37_79B9,
                setup: simulation.setup,
                ledger: world.ledger,
                // The world holds its devices: they hold it weakly, or no run would ever be freed.
                server: { [weak world] in world?.answering },
                restartServer: { [weak world] in try await world?.restartServer() }
            )
            device.network.onRequest { [weak world, workloads, unowned device] request in
                guard let world else { return }
                for workload in workloads {
                    if let found = try? await workload.checkShown(on: device) { world.observe(found) }
                }
                world.observe(await Self.otherAccountsWrites(in: request, from: device, in: world))
            }
            log?("setup: starting device \(index)")
            try await device.start()
            world.devices.append(device)
            if device.isConfigured {
                // As a person runs it first: writes made, then `ferry run`, which signs in.
                note("-- device \(index) set up by its configuration: it signs in by itself at its first sync", nil)
                await remember(device)
                continue
            }
            log?("setup: signing in device \(index)")
            try await device.signIn()
            if actingAccount == nil { actingAccount = await device.runtime.credentials.account() }
            await remember(device)
            log?("setup: first sync of device \(index)")
            _ = await sync(device)
        }
    }

    /// Performs one event; returns what came of it, when worth a note.
    private mutating func perform(_ event: SimulationEvent) async -> String? {
        do {
            switch event {
            case .act(let index, let name, let action):
                guard let workload = workloads.first(where: { $0.name == name }) else { return "no workload \(name)" }
                let device = world.devices[index]
                // The workloads act as one account: a person signed in with another does nothing.
                if try await isSignedInWithAnotherAccount(device) {
                    return "not done: another account is signed in here"
                }
                let world = world
                await remember(device)
                let end = await device.run { try await workload.perform(action, on: device, in: world) }
                await remember(device, actedAt: device.clock.now())
                return try await outcome(end, of: device, failed: "refused")
            case .sync(let index):
                let device = world.devices[index]
                await remember(device)
                return try await outcome(await sync(device), of: device, failed: "failed")
            case .beside(let index):
                let device = world.devices[index]
                await remember(device)
                switch try await device.passBeside() {
                case .finished: return nil
                case .failed(let reason): return "failed: \(Self.withoutRandomIDs(reason).prefix(100))"
                case .crashed: return "the second process died in a request; the device's own runs on"
                }
            case .wait(let seconds): world.clock.advance(by: seconds)
            case .network(let index, let change): world.devices[index].setNetwork(change)
            case .fault(let index, let fault):
                if fault == .refuseToken { refused.insert(index) }
                world.devices[index].network.arm(fault)
            case .crash(let index): try await world.devices[index].restart()
            case .damageStore(let index, let damage):
                switch try await world.devices[index].damageStore(damage) {
                case .refused: return "refused the damaged store; a person put back the copy"
                case .nothingToDamage: return "no operation queued to damage; started again"
                case .wentOn(let what): violations.append(SimulationViolation("damaged-store", "device \(index) \(what)"))
                }
            case .restartServer: try await world.restartServer()
            case .serverDown(let seconds): try await world.takeDown(for: seconds)
            case .restoreServer:
                guard try await world.restoreServer() else { return "no backup yet" }
                // The sessions made since the backup are gone: people sign in again.
                revoked.formUnion(world.devices.map(\.index))
                for workload in workloads { workload.serverRestored() }
            case .revokeSession(let index):
                guard let token = try? await world.devices[index].runtime.credentials.accessToken() else {
                    return "no session"
                }
                revoked.insert(index)
                let answer = try await world.ask(
                    "POST",
                    "/v1/auth/logout",
                    headers: [("Authorization", "Bearer \(token)")]
                )
                return "server answered \(answer.status)"
            case .signIn(let index, let account):
                let device = world.devices[index]
                let end = await device.run { try await device.signIn(as: account) }
                if account != nil, try await isSignedInWithAnotherAccount(device) {
                    for workload in workloads { workload.anotherAccountSignedIn(on: index) }
                }
                if case .finished = end {
                    revoked.remove(index)
                    // A refusal still to come may end the new session too.
                    if !device.network.isArmed(.refuseToken) { refused.remove(index) }
                }
                return try await outcome(end, of: device, failed: "refused")
            case .diskFull(let index, let full):
                do {
                    try await world.devices[index].fillDisk(full)
                } catch {
                    return "refused: \(Self.short(error))"
                }
            case .skew(let index, let seconds): world.devices[index].setSkew(seconds)
            }
        } catch {
            violations.append(SimulationViolation("harness", "\(event): \(error)"))
        }
        return nil
    }

    /// Lets `device`'s runner work (a pass, or a turn of its loop); a loop that would start
    /// its next turn at once is a violation.
    private mutating func sync(_ device: SimulatedDevice) async -> SimulatedDevice.PassEnd {
        let end = await device.sync()
        for spin in device.takeSpins() {
            violations.append(SimulationViolation("busy-loop", "device \(device.index): \(spin)"))
        }
        checkLinks()
        if case .finished = end { await checkProbe(of: device) }
        return end
    }

    /// What to note of how `device` ran a step; a device that died in it starts again.
    private func outcome(
        _ end: SimulatedDevice.PassEnd,
        of device: SimulatedDevice,
        failed: String
    ) async throws -> String? {
        switch end {
        case .finished: return nil
        case .failed(let reason): return "\(failed): \(Self.withoutRandomIDs(reason).prefix(100))"
        case .crashed:
            try await device.restart()
            return "died in a request; started again"
        }
    }

    /// `text` with the ids drawn at random (the server's `r_3f9a…`, a device's `local-…`,
    /// operation keys) written as `…`, so that the same run reads the same.
    static func withoutRandomIDs(_ text: String) -> String {
        text.replacing(#/[0-9a-fA-F]{8}(-[0-9a-fA-F]+)+|[0-9a-fA-F]{16,}/#, with: "…")
    }

    private static func short(_ error: any Error, _ length: Int = 100) -> String {
        String("\(error)".prefix(length))
    }

    /// Faults stop, links come back, people sign in where they must, and time passes
    /// until every queue has drained but for dead letters (which only a person changes;
    /// each must be one a person really has to see); then every device pulls twice, and
    /// the checks run.
    private mutating func settle() async throws {
        note("-- faults stop; every device online, disk free, signed in", nil)
        for device in world.devices {
            device.network.disarm()
            device.setNetwork(.online)
            device.setNetwork(.unmetered)
            if device.diskFull { try await device.fillDisk(false) }
        }
        world.endOutage()
        if world.server == nil { try await world.start(fresh: false) }
        // Time passes: a loop whose last probe found no remote (its request lost, say)
        // trusts that for up to the probe's interval, as `ferry run` does (sooner while
        // work waits), and looks again after.
        let interval = world.devices.first?.runtime.configuration.kernel.network.probeInterval.value ?? 15
        world.clock.advance(by: interval)
        var drained = false
        for _ in 0..<40 {
            // A person whose session was ended signs in until it works: a sign-in refused
            // halfway (a full disk) may have left a token and the writes made while signed
            // out still waiting for the login that keeps them.
            for device in world.devices where try await isSignedInWithAnotherAccount(device) {
                try await device.signIn()
                note("sign-in \(device.index)  -> a person signs in as the workloads' account again", nil)
            }
            for device in world.devices {
                let ended = revoked.contains(device.index)
                guard try await needsSignIn(device) || ended else { continue }
                let session = (try? await device.runtime.credentials.accessToken()) != nil
                // A queue held while the session stands resumes by itself once the device
                // has another token (checked when the world has settled).
                if session, !ended { continue }
                if !ended, !refused.contains(device.index) {
                    violations.append(
                        SimulationViolation(
                            "signed-out",
                            "device \(device.index) needs a person to sign in, but the server never ended its session"
                        )
                    )
                    return
                }
                revoked.remove(device.index)
                refused.remove(device.index)
                try await device.signIn()
                note("sign-in \(device.index)  -> a person signs in again", nil)
            }
            for device in world.devices {
                await remember(device)
                if case .crashed = await sync(device) { try await device.restart() }
            }
            try await checkLedger()
            try await checkChangedDevices()
            if !violations.isEmpty { return }
            if try await nothingLeftToSend(), try await !anyNeedsSignIn() {
                // The dead letters left: each must be one a person really has to see.
                try await reportQueues()
                drained = true
                break
            }
            world.clock.advance(by: 300)
        }
        // What is left now the runners left it, as they run (a loop turn by turn): the
        // passes below pull, and would send it too.
        if !drained {
            for device in world.devices where try await needsSignIn(device) {
                violations.append(
                    SimulationViolation(
                        "signed-out",
                        "device \(device.index) holds its queue for a login, though its session stands"
                    )
                )
            }
            try await reportQueues()
            return
        }
        // A pass pulls whatever is due: a loop's turn pulls when its interval has passed.
        for _ in 0..<2 {
            for device in world.devices { _ = await device.pass() }
        }
        try await checkLedger()
        if !violations.isEmpty { return }
        for workload in workloads { violations += try await workload.check(world) }
    }

    /// Whether the account the device's writes are made for (the signed-in one, or the one
    /// whose session the server ended) is not the one the workloads act as.
    private func isSignedInWithAnotherAccount(_ device: SimulatedDevice) async throws -> Bool {
        guard let writer = await device.runtime.credentials.writer() else { return false }
        return writer != actingAccount
    }

    /// A write the device sends while signed in with an account other than the one it was
    /// queued under: it would be applied as that account's.
    private static func otherAccountsWrites(
        in request: SyncKernel.PreparedRequest,
        from device: SimulatedDevice,
        in world: SimulationWorld
    ) async -> [SimulationViolation] {
        let keys = ApplyLedger.keys(of: request, path: SimulatedNetwork.path(of: request.url))
        guard !keys.isEmpty, let account = await device.runtime.credentials.account() else { return [] }
        return keys.compactMap { key in
            guard let queuedUnder = world.account(queuing: key.lowercased()), queuedUnder != account else { return nil }
            return SimulationViolation(
                "other-account",
                "device \(device.index) sent a write queued under \(queuedUnder) while \(account) was signed in: it would be \(account)'s"
            )
        }
    }

    private func needsSignIn(_ device: SimulatedDevice) async throws -> Bool {
        if (try? await device.runtime.credentials.accessToken()) == nil { return true }
        return try await device.runtime.store.read { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM kernel_plugin_state WHERE needs_login = 1)")
            ) ?? false
        }
    }

    private func anyNeedsSignIn() async throws -> Bool {
        for device in world.devices where try await needsSignIn(device) { return true }
        return false
    }

    /// Whether every queue is empty but for dead letters and what waits behind them on
    /// their entities, which only a person changes.
    private func nothingLeftToSend() async throws -> Bool {
        for device in world.devices {
            let operations = try await device.operations()
            if operations.contains(where: { $0.state != .dead && !Self.isBehind($0, anyOf: operations.filter { $0.state == .dead }) }) {
                return false
            }
        }
        return true
    }

    /// Whether `operation` is queued after one of `dead` on its own entity: a dead letter
    /// blocks its entity until a person retries or discards it (`ferry status` says
    /// "blocked behind operation …").
    static func isBehind(_ operation: QueuedOperation, anyOf dead: [QueuedOperation]) -> Bool {
        dead.contains { $0.plugin == operation.plugin && $0.entity == operation.entity && $0.sequence < operation.sequence }
    }

    /// Names what is left in each queue: a dead letter its workload says only a person can
    /// take further is no violation, nor what waits behind it on its entity.
    private mutating func reportQueues() async throws {
        for device in world.devices {
            let operations = try await device.operations()
            let forAPerson = operations.filter { operation in
                operation.state == .dead && workloads.contains(where: { $0.name == operation.plugin && $0.needsPerson(operation) })
            }
            for operation in operations {
                let state = operation.state
                if state == .dead ? forAPerson.contains(where: { $0.sequence == operation.sequence }) : Self.isBehind(operation, anyOf: forAPerson) {
                    continue
                }
                let invariant = state == .dead ? "needs-person" : "not-drained"
                violations.append(
                    SimulationViolation(
                        invariant,
                        "device \(device.index): \(operation.plugin) \(operation.kind) \(operation.entity) #\(operation.sequence) (\(operation.attempts) attempts) is still \(state.rawValue) after the world settled (\(operation.lastError ?? "no error"))"
                    )
                )
            }
        }
    }
}
