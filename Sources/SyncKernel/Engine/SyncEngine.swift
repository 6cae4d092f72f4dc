import Foundation
import GRDB
import Logging
import ServiceLifecycle
import Synchronization

/// Decides what runs next: due operations (in order per entity, concurrently across
/// entities), scheduled pulls, and sleeps until the next due time.
public actor SyncEngine: Service {
    let runtime: FerryRuntime
    let owner: LeaseOwner
    /// The enabled plugins and declared domains, whose operations it sends.
    let plugins: Set<String>
    /// Operations sent whose answer the remote replayed from an earlier attempt, until acknowledged.
    var answeredFromRecord: Set<UUID> = []
    /// The change numbers the remote gave with an accepted operation's writes
    /// (`Ferry-Change`), until acknowledged: its plugin's feeds present them at their next pull.
    var remoteChanges: [UUID: ClosedRange<Int>] = [:]
    /// Plugins whose remote answered that it has no batch endpoint: their operations go alone.
    var unbatched: Set<String> = []
    var summary = RunSummary()
    var lastConnectivity: ConnectivityState?
    var nextPull: [String: Deadline] = [:]
    /// Requests in a row that got no answer; the next one waits longer (`RetryDecision`).
    var unanswered = 0
    /// When the engine next asks the credential provider whether a held queue can resume.
    var nextHoldCheck = Deadline()
    /// The account the local data was last seen to belong to.
    var dataAccount: String?
    /// When the engine next looks for leases left behind by another runner.
    var nextReclaim = Deadline()
    /// While work waits for connectivity: when the next probe goes, and the wait after it.
    var nextProbe = Deadline()
    var probeDelay = SyncEngine.firstProbeDelay
    /// The network overrides the last look at them found; each lease checks them again in
    /// its own write (`LeaseTerms`).
    var overrides = NetworkOverrides()
    let stopping = OnceFlag()

    /// Requests that leave a batch to go alone share these permits (`sync.concurrency`).
    let requestLimiter: RequestLimiter

    /// Creates an engine for `runtime`; the operations it sends are leased to `owner`.
    public init(runtime: FerryRuntime, owner: LeaseOwner = .current) {
        self.runtime = runtime
        self.owner = owner
        self.plugins = Set(runtime.registry.names)
        self.requestLimiter = RequestLimiter(permits: runtime.configuration.kernel.sync.concurrency)
    }

    /// Does everything that can be done now, once: sends due operations until none is
    /// left, pulls every plugin when the remote is reachable, and returns what happened.
    public func runOnce() async throws -> RunSummary {
        summary = RunSummary()
        let downloads = Mutex(TransferTally())
        try await runtime.events.observing({ event in downloads.withLock { _ = $0.record(event) } }) {
            try await reclaimAbandonedLeases()
            try await restartWaitsIfTheClockWentBack()
            try await followSignedInAccount()
            try await releaseHolds()
            let state = await refreshConnectivity()
            try await drain()
            if state.reachable {
                for plugin in runtime.registry.plugins { await pull(plugin) }
                // A queue held during this pass resumes in it when a credential came since
                // (the provider signed in again by itself), and the work made while nobody
                // was signed in goes as the account that signed in by itself.
                try await followSignedInAccount()
                try await releaseHolds()
                try await drain()
            }
        }
        summary.downloads = downloads.withLock { $0 }
        return summary
    }

    /// Runs until cancelled or until graceful shutdown; in-flight sends finish first.
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await loop()
        } onGracefulShutdown: { [stopping] in
            stopping.set()
        }
    }

    /// Asks a running loop to stop after the work in flight.
    public nonisolated func stop() {
        stopping.set()
    }

    /// What the engine last found of connectivity: the running loop's view of the remote
    /// between its turns; nil before its first look.
    public var connectivity: ConnectivityState? { lastConnectivity }

    /// The first wait between probes while work waits for connectivity; it doubles up to
    /// `network.probe_interval`.
    public static let firstProbeDelay: TimeInterval = 0.5

    /// How often a running engine looks for leases left behind by a runner that died or
    /// stalled.
    static let reclaimInterval: TimeInterval = 10

    private func loop() async throws {
        while !stopping.isSet && !Task.isCancelled {
            let wake = try await turn()
            do {
                try await runtime.clock.sleep(until: wake)
            } catch {
                return
            }
        }
    }

    /// One turn of the running loop (``run()``): reclaims abandoned leases when due,
    /// follows the signed-in account, resumes held queues, probes sooner while work waits
    /// for the remote, and while it is reachable sends what is due and pulls what is due.
    /// Returns when the loop wakes for its next turn: after `sync.poll_interval`, or when
    /// work falls due before that; always later than the turn's end.
    ///
    /// `ferry-sim` runs the loops of its devices turn by turn, on virtual time.
    public func turn() async throws -> Date {
        let poll = runtime.configuration.kernel.sync.pollInterval.value
        try await reclaimWhenDue()
        try await followSignedInAccount()
        try await releaseHolds()
        try await probeSoonerWhileWorkWaits()
        let state = await refreshConnectivity()
        if state.reachable {
            try await drain()
            try await pullWhenDue()
        }
        let now = runtime.clock.now()
        var wake = now.addingTimeInterval(poll)
        // Only what falls due later counts: work due now that drain left (held, waiting
        // for an unmetered network or a connection) must not make the loop spin.
        if state.reachable, let due = try await nextDueTime(after: now), due < wake { wake = due }
        return wake
    }

    /// While the remote is unreachable and operations wait for it, asks the monitor to
    /// probe again after half a second, then after twice as long each time, up to the
    /// probe interval: a short outage ends for the queue soon after it ends for the remote.
    func probeSoonerWhileWorkWaits() async throws {
        guard lastConnectivity?.reachable == false else {
            probeDelay = Self.firstProbeDelay
            nextProbe.reset()
            return
        }
        let now = runtime.clock.now()
        guard nextProbe.hasCome(at: now), try await nextDueTime(after: nil) != nil else { return }
        await runtime.connectivity.reportUnreachable()
        nextProbe.restart(from: now, after: probeDelay)
        probeDelay = min(probeDelay * 2, runtime.configuration.kernel.network.probeInterval.value)
    }

    /// Reclaims abandoned leases every `reclaimInterval`.
    func reclaimWhenDue() async throws {
        let now = runtime.clock.now()
        guard nextReclaim.hasCome(at: now) else { return }
        nextReclaim.restart(from: now, after: Self.reclaimInterval)
        try await reclaimAbandonedLeases()
        try await restartWaitsIfTheClockWentBack()
    }

    /// Backoffs started at a time the clock has not reached (it was set back since) start
    /// again from now, keeping their length. Looks first, and writes only when one did.
    func restartWaitsIfTheClockWentBack() async throws {
        let now = runtime.clock.now()
        guard try await runtime.store.read({ db in try OutboxQueries.hasWaitsFromTheFuture(now: now, in: db) })
        else { return }
        runtime.logger.info("the clock was set back; operations waiting for a retry wait from now")
        try await runtime.store.write { db in try OutboxQueries.restartWaitsFromTheFuture(now: now, in: db) }
    }

    /// Checks connectivity; regaining it cuts backoffs short.
    @discardableResult
    func refreshConnectivity() async -> ConnectivityState {
        let connectivity = runtime.forcedConnectivity
        overrides = (try? await connectivity.storedOverrides()) ?? NetworkOverrides()
        let state = await connectivity.current(under: overrides)
        if state != lastConnectivity {
            if state.reachable, lastConnectivity?.reachable == false {
                let now = runtime.clock.now()
                try? await runtime.store.write { db in try OutboxQueries.cutWaits(now: now, in: db) }
            }
            if lastConnectivity != nil || !state.reachable { runtime.events.emit(.connectivity(state)) }
            lastConnectivity = state
        }
        return state
    }

    /// Returns operations whose lease was left behind by a process that died or ran out of
    /// time. Looks first, and writes only when there is something to reclaim.
    func reclaimAbandonedLeases() async throws {
        let now = runtime.clock.now()
        let leases = try await runtime.store.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT lease_owner, MIN(lease_until) AS until FROM kernel_operations WHERE state = 'in_flight' GROUP BY lease_owner"
                )
            )
            .map { (owner: $0["lease_owner"] as String?, until: $0["until"] as Double?) }
        }
        let dead = leases.compactMap(\.owner).filter { LeaseOwner(text: $0)?.isAlive == false }
        let expired = leases.contains { ($0.until ?? 0) < now.timeIntervalSince1970 }
        guard expired || !dead.isEmpty else { return }
        try await runtime.store.write { db in try OutboxQueries.reclaim(now: now, deadOwners: dead, in: db) }
    }

    /// Sends due operations until none is due: at most `concurrency` deliveries at a time,
    /// each one operation or a batch of up to `batch_size` operations of one plugin.
    ///
    /// Each slot keeps sending while the acknowledgement of its delivery leases the next one
    /// in the same write (`deliverWhileDue`); a slot whose acknowledgement found nothing due
    /// is filled here again.
    func drain() async throws {
        let slots = max(1, runtime.configuration.kernel.sync.concurrency)
        let renewal = LeaseRenewal(store: runtime.store, clock: runtime.clock, owner: owner.text, lease: leaseDuration)
        defer { renewal.stop() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            var inFlight = 0
            while true {
                if !stopping.isSet, inFlight < slots {
                    let deliveries = try await leaseDue(slots: slots - inFlight)
                    for operations in deliveries {
                        group.addTask { await self.deliverWhileDue(operations, renewal: renewal) }
                    }
                    inFlight += deliveries.count
                }
                guard inFlight > 0 else { return }
                try await group.next()
                inFlight -= 1
            }
        }
    }

    /// How long a lease lasts: twice a request's timeout, and ten seconds more.
    var leaseDuration: TimeInterval {
        runtime.configuration.kernel.sync.requestTimeout.value * 2 + 10
    }

    /// Leases the next due operations whose plugin is active and whose requirements hold,
    /// grouped into at most `slots` deliveries.
    func leaseDue(slots: Int) async throws -> [[QueuedOperation]] {
        while true {
            guard let terms = await leaseTerms() else { return [] }
            switch try await runtime.store.write({ db in try terms.lease(slots: slots, in: db) }) {
            case .leased(let deliveries):
                return deliveries
            case .overridesChanged(let stored):
                // A pin changed in between: look again under the stored one.
                overrides = stored
            }
        }
    }

    /// What the next lease goes under, or nil when the remote cannot be reached.
    ///
    /// Connectivity is worked out under the overrides last seen, without reading them: the
    /// lease's write reads them and leases nothing when they changed (`LeaseTerms`). Only an
    /// unreachable answer reads them first, since a pin lifted since then would change it.
    func leaseTerms() async -> LeaseTerms? {
        let connectivity = runtime.forcedConnectivity
        var state = await connectivity.current(under: overrides)
        if !state.reachable {
            let stored = (try? await connectivity.storedOverrides()) ?? NetworkOverrides()
            guard stored != overrides else { return nil }
            overrides = stored
            state = await connectivity.current(under: stored)
            guard state.reachable else { return nil }
        }
        let now = runtime.clock.now()
        return LeaseTerms(
            plugins: plugins,
            now: now,
            owner: owner.text,
            until: now.addingTimeInterval(leaseDuration),
            connectivity: state,
            overrides: overrides,
            account: await runtime.credentials.account(),
            batchSize: runtime.configuration.kernel.sync.batchSize,
            unbatched: unbatched.union(runtime.registry.sendingAlone)
        )
    }

    /// When the next pending operation falls due after `after` (any pending one when nil).
    func nextDueTime(after: Date?) async throws -> Date? {
        let after = (after ?? .distantPast).timeIntervalSince1970
        return try await runtime.store.read { db in
            try Double.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT MIN(next_attempt_at) FROM kernel_operations WHERE state = 'pending' AND next_attempt_at > ?"
                ),
                arguments: [after]
            ).map(Date.init(timeIntervalSince1970:))
        }
    }

    private func pullWhenDue() async throws {
        let now = runtime.clock.now()
        let every = runtime.configuration.kernel.sync.pullEvery.value
        for plugin in runtime.registry.plugins {
            let name = plugin.pluginName
            let configured =
                runtime.configuration.plugins[name]?.kernel.pullEvery ?? runtime.configuration.domains[name]?.pullEvery
            let interval = configured?.value ?? every
            guard nextPull[name, default: Deadline()].hasCome(at: now) else { continue }
            nextPull[name, default: Deadline()].restart(from: now, after: interval)
            await pull(plugin)
        }
    }
}
