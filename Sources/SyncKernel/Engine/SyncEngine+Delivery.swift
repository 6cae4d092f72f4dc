import Foundation
import GRDB

extension SyncEngine {
    /// Sends `operations`, then each delivery that its acknowledgement leased, until an
    /// acknowledgement leases none: one write per delivery, not a lease and then an
    /// acknowledgement. A crash after that write leaves the next delivery leased to a dead
    /// runner, which the next runner reclaims (`reclaimAbandonedLeases`).
    func deliverWhileDue(_ operations: [QueuedOperation], renewal: LeaseRenewal) async {
        var next: [QueuedOperation]? = operations
        while let operations = next {
            renewal.sending(operations)
            next = await deliver(operations)
            renewal.done(operations)
        }
    }

    /// Sends leased operations of one plugin, one alone or several together in one batch
    /// request, and records each one's outcome; the accepted ones in one write, which leases
    /// the next delivery too. Returns that delivery, if any.
    func deliver(_ operations: [QueuedOperation]) async -> [QueuedOperation]? {
        guard let first = operations.first,
            let plugin = runtime.registry.plugin(named: first.plugin),
            let transport = runtime.transport(for: first.plugin)
        else { return nil }
        // Every operation of this delivery that gets no answer counts as one more round
        // without an answer, however many travelled together.
        let strike = unanswered + 1
        var accepted: [(QueuedOperation, SendOutcome)] = []
        if operations.count > 1, let base = try? await transport.baseURL() {
            accepted = await sendTogether(operations, plugin: plugin, transport: transport, base: base, strike: strike)
        } else {
            for operation in operations {
                let result = await attempt(operation, plugin: plugin, transport: transport)
                if let done = await outcome(of: operation, result, plugin: plugin, strike: strike) {
                    accepted.append(done)
                }
            }
        }
        return await acknowledge(accepted, plugin: plugin, strike: strike)
    }

    /// Sends `operations` through one `RequestBatch`, at once or in turn (`Options.batching`);
    /// returns the accepted ones, in queue order.
    private func sendTogether(
        _ operations: [QueuedOperation],
        plugin: any SyncPlugin,
        transport: HTTPTransport,
        base: String,
        strike: Int
    ) async -> [(QueuedOperation, SendOutcome)] {
        let batch = RequestBatch(
            participants: operations.count,
            executor: transport.executor,
            base: base,
            path: runtime.configuration.kernel.sync.batchPath,
            limiter: requestLimiter,
            batching: runtime.batching
        )
        let accepted = await withTaskGroup(of: (Int, QueuedOperation, SendOutcome)?.self) { group in
            for (index, operation) in operations.enumerated() {
                let batched = transport.with(executor: batch.participantExecutor(index), turn: batch.participantTurn(index))
                group.addTask {
                    await batch.participate(index) {
                        let result = await self.attempt(operation, plugin: plugin, transport: batched)
                        return await self.outcome(of: operation, result, plugin: plugin, strike: strike).map { (index, $0, $1) }
                    }
                }
            }
            var accepted: [(Int, QueuedOperation, SendOutcome)] = []
            for await result in group {
                if let result { accepted.append(result) }
            }
            // Acknowledged in queue order, whichever answer came first.
            return accepted.sorted { $0.0 < $1.0 }.map { ($0.1, $0.2) }
        }
        if batch.refused {
            unbatched.insert(plugin.pluginName)
            runtime.logger.info("\(plugin.pluginName): the remote has no batch endpoint; sending operations one by one")
        }
        return accepted
    }

    /// Sends one leased operation through `transport`.
    private func attempt(
        _ operation: QueuedOperation,
        plugin: any SyncPlugin,
        transport: HTTPTransport
    ) async -> Result<SendOutcome, any Error> {
        guard let context = runtime.context(for: operation.plugin)?.sending(operation, through: transport) else {
            return .failure(FerryError(.plugin, "the \(operation.plugin) plugin has no context"))
        }
        let result: Result<SendOutcome, any Error>
        do {
            result = .success(try await plugin.send(operation, context: context))
        } catch {
            result = .failure(error)
        }
        if context.transport.keys?.answeredFromRecord == true { answeredFromRecord.insert(operation.id) }
        if case .success(let outcome) = result, outcome.acknowledgement != nil,
            let changes = context.transport.keys?.changeNumbers
        {
            remoteChanges[operation.id] = changes
        }
        return result
    }

    /// The accepted operation and its outcome, or nil once a failure is recorded.
    private func outcome(
        of operation: QueuedOperation,
        _ result: Result<SendOutcome, any Error>,
        plugin: any SyncPlugin,
        strike: Int
    ) async -> (QueuedOperation, SendOutcome)? {
        switch result {
        case .success(let outcome):
            guard let (failure, alongside) = outcome.failure else { return (operation, outcome) }
            await answered()
            await record(failure, of: operation, plugin: plugin, strike: strike, alongside: alongside)
            return nil
        case .failure(let error):
            await recordFailure(error, of: operation, plugin: plugin, strike: strike)
            return nil
        }
    }

    /// Writes the outcomes of accepted operations and removes them from the outbox, in one
    /// transaction; an outcome whose local change throws is left out of it (`unrecorded`).
    /// Unless the engine is stopping, the same transaction leases the next delivery, which
    /// this returns.
    private func acknowledge(
        _ accepted: [(QueuedOperation, SendOutcome)],
        plugin: any SyncPlugin,
        strike: Int
    ) async -> [QueuedOperation]? {
        guard !accepted.isEmpty else { return nil }
        // First: the answer renews the monitor's last probe, so that the next lease's look at
        // connectivity sends no probe of its own.
        await answered()
        let now = runtime.clock.now()
        let terms = stopping.isSet || Task.isCancelled ? nil : await leaseTerms()
        // An answer replayed from an earlier attempt may be older than what was pulled
        // since (a deletion by another device): the plugin's feed is pulled again from the
        // start, its tombstones included.
        let resync = Set(accepted.filter { answeredFromRecord.remove($0.0.id) != nil }.map(\.0.plugin))
        // The change numbers of the answers, one range per plugin (noted as one: the
        // cursors keep the lowest and the highest).
        var answered: [String: ClosedRange<Int>] = [:]
        for (operation, _) in accepted {
            guard let changes = remoteChanges.removeValue(forKey: operation.id) else { continue }
            answered[operation.plugin] = answered[operation.plugin].map {
                min($0.lowerBound, changes.lowerBound)...max($0.upperBound, changes.upperBound)
            } ?? changes
        }
        let seen = answered
        // Each outcome's local change that threw, in a savepoint: the others commit.
        var unrecordable: [(any Error)?] = Array(repeating: nil, count: accepted.count)
        // The write as a whole that failed: nothing of it is left.
        var unwritten: (any Error)?
        var next: [QueuedOperation]?
        do {
            let written = try await writeEvenIfCancelled { db in
                let results = try accepted.map { operation, outcome -> (any Error)? in
                    let applied = try db.attemptInSavepoint {
                        try Self.apply(outcome, of: operation, plugin: plugin, now: now, in: db)
                    }
                    if case .failure(let error) = applied { return error }
                    return nil
                }
                for plugin in resync { try SyncCursors.reset(plugin: plugin, in: db) }
                for (plugin, changes) in seen { try SyncCursors.noteSeen(changes, plugin: plugin, in: db) }
                // After the deletions: an entity's next operation, made pending by them, may go.
                // A lease that fails leaves the acknowledgements alone; the drain leases again.
                let lease = try terms.flatMap { terms in
                    let leased = try db.attemptInSavepoint { try terms.lease(slots: 1, in: db) }
                    return try? leased.get()
                }
                return (results, lease)
            }
            unrecordable = written.0
            switch written.1 {
            case .leased(let deliveries)?: next = deliveries.first
            case .overridesChanged(let stored)?: overrides = stored
            case nil: break
            }
        } catch {
            unwritten = error
        }
        for ((operation, outcome), failure) in zip(accepted, unrecordable) {
            if let unwritten {
                await recordFailure(unwritten, of: operation, plugin: plugin, strike: strike)
                continue
            }
            if let failure {
                let error = StoreFailure.map(failure, doing: "write to the store")
                await unrecorded("accepted", of: operation, error: error, plugin: plugin)
                continue
            }
            if let reason = outcome.alreadyDoneReason {
                runtime.logger.debug(
                    "\(operation.plugin) \(operation.kind) \(operation.entity): already done (\(reason))"
                )
            }
            summary.sent += 1
            runtime.events.emit(
                .sent(plugin: operation.plugin, kind: operation.kind, entity: operation.entity, operation: operation.id)
            )
        }
        return next
    }

    private static func apply(
        _ outcome: SendOutcome,
        of operation: QueuedOperation,
        plugin: any SyncPlugin,
        now: Date,
        in db: Database
    ) throws {
        guard let acknowledgement = outcome.acknowledgement else { return }
        try acknowledgement.apply?(db)
        try OutboxQueries.delete(operation.sequence, in: db)
        var entity = operation.entity
        if let remoteID = acknowledgement.remoteID, remoteID != operation.entity {
            try IDMappings.remap(operation, to: remoteID, plugin: plugin, now: now, in: db)
            entity = remoteID
        }
        switch acknowledgement.base {
        case .unchanged: break
        case .remote(let remote): try OutboxQueries.setBase(remote, plugin: operation.plugin, entity: entity, in: db)
        case .cleared: try OutboxQueries.setBase(nil, plugin: operation.plugin, entity: entity, in: db)
        }
        // The answer may have stored the remote's entity over the local row: the entity's
        // later writes go on top again.
        if acknowledgement.apply != nil || entity != operation.entity {
            try Rebase.entity(entity, of: plugin, from: .ownWrite, in: db)
        }
    }

    /// Records why `operation` was not delivered and what follows; `strike` is its
    /// delivery's count of rounds in a row without an answer.
    private func recordFailure(
        _ error: any Error,
        of operation: QueuedOperation,
        plugin: any SyncPlugin,
        strike: Int
    ) async {
        let now = runtime.clock.now()
        if error is CancellationError || Task.isCancelled {
            try? await writeEvenIfCancelled { db in
                try OutboxQueries.reschedule(
                    operation.sequence,
                    after: 0,
                    now: now,
                    attempts: operation.attempts,
                    waitingFor: nil,
                    error: nil,
                    in: db
                )
            }
            return
        }
        let failure = FailureClass.classify(error, now: now)
        if case .offline = failure { unanswered = max(unanswered, strike) } else { await answered() }
        let refused = (error as? RemoteFailure)?.refusedCredential
        await record(
            failure,
            of: operation,
            plugin: plugin,
            strike: strike,
            refused: refused,
            spendsAttempt: !StoreFailure.isFull(error)
        )
    }

    /// Records what follows `failure`; `alongside` is a plugin's local change that goes with a
    /// dead letter (`SendOutcome.needsPerson`), in the same transaction.
    private func record(
        _ failure: FailureClass,
        of operation: QueuedOperation,
        plugin: any SyncPlugin,
        strike: Int,
        refused: String? = nil,
        alongside: LocalChange? = nil,
        spendsAttempt: Bool = true
    ) async {
        let now = runtime.clock.now()
        let policy = runtime.outbox.policies.policy(plugin: operation.plugin, kind: operation.kind)
        let action = RetryDecision.decide(
            failure,
            attempts: operation.attempts,
            policy: policy.retry,
            now: now,
            unit: runtime.random(),
            unanswered: strike,
            spendsAttempt: spendsAttempt
        )
        do {
            try await apply(
                action,
                to: operation,
                policy: policy,
                plugin: plugin,
                refused: refused,
                alongside: alongside,
                now: now
            )
        } catch {
            await unrecorded(failure.reason, of: operation, error: error, plugin: plugin)
        }
    }

    /// Carries out `action` for `operation`. Throws when the write fails: when a local
    /// change that goes with it (the plugin's `adoptRemote`, `reapply`) throws, nothing of it
    /// is recorded.
    func apply(
        _ action: RetryAction,
        to operation: QueuedOperation,
        policy: OperationPolicy,
        plugin: any SyncPlugin,
        refused: String?,
        alongside: LocalChange? = nil,
        now: Date
    ) async throws {
        let id = operation.id
        switch action {
        case .retry(let at, let attempts, let reason):
            try await writeEvenIfCancelled { db in
                try OutboxQueries.reschedule(
                    operation.sequence,
                    after: at.timeIntervalSince(now),
                    now: now,
                    attempts: attempts,
                    waitingFor: .retry,
                    error: reason,
                    in: db
                )
            }
            summary.retried += 1
            runtime.events.emit(
                .retrying(
                    plugin: operation.plugin,
                    kind: operation.kind,
                    operation: id,
                    attempts: attempts,
                    at: at,
                    reason: reason
                )
            )
        case .waitForConnectivity(let recheckAt, let reason):
            runtime.logger.debug(
                "\(operation.plugin) \(operation.kind): no answer (\(reason)); waiting for connectivity"
            )
            await runtime.connectivity.reportUnreachable()
            try await writeEvenIfCancelled { db in
                try OutboxQueries.reschedule(
                    operation.sequence,
                    after: recheckAt.timeIntervalSince(now),
                    now: now,
                    attempts: operation.attempts,
                    waitingFor: .connectivity,
                    error: reason,
                    in: db
                )
            }
            runtime.events.emit(.waitingForConnectivity(plugin: operation.plugin, operation: id, reason: reason))
        case .holdForLogin(let reason):
            try await writeEvenIfCancelled { db in
                try OutboxQueries.reschedule(
                    operation.sequence,
                    after: 0,
                    now: now,
                    attempts: operation.attempts,
                    waitingFor: .login,
                    error: reason,
                    in: db
                )
                try PluginState.holdForLogin(operation.plugin, reason: reason, credential: refused, in: db)
            }
            runtime.events.emit(.needsLogin(plugin: operation.plugin, reason: reason))
        case .deadLetter(let reason, let attempts):
            let reason = try await writeEvenIfCancelled { db -> String in
                var reason = reason
                if let alongside {
                    if case .failure(let error) = try db.attemptInSavepoint({ try alongside(db) }) {
                        reason += " (recording what goes with it failed: \(error))"
                    }
                }
                try OutboxQueries.settle(operation.sequence, as: .dead, attempts: attempts, error: reason, in: db)
                return reason
            }
            summary.deadLettered += 1
            runtime.logger.warning(
                "\(operation.plugin) \(operation.kind) \(operation.entity) is a dead letter: \(reason)"
            )
            runtime.events.emit(.dead(plugin: operation.plugin, kind: operation.kind, operation: id, reason: reason))
        case .holdForConfiguration(let reason):
            let fingerprint = runtime.configuration.fingerprint(of: operation.plugin)
            try await writeEvenIfCancelled { db in
                try OutboxQueries.reschedule(
                    operation.sequence,
                    after: 10 * 365 * 86_400,
                    now: now,
                    attempts: operation.attempts,
                    waitingFor: .configuration,
                    error: reason,
                    in: db
                )
                try PluginState.holdForConfiguration(operation.plugin, fingerprint: fingerprint, in: db)
            }
            runtime.logger.warning(
                "\(operation.plugin) \(operation.kind) \(operation.entity) waits for a change of plugins.\(operation.plugin) in \(runtime.configuration.file): \(reason)"
            )
        case .waitForEntity(let entity, let reason):
            // Waiting for its own entity, the operation would wait for itself: it is first
            // in line there, and what queues behind it goes after it.
            let waitsForItself = entity == operation.entity
            let parked = try await writeEvenIfCancelled { db -> Bool in
                guard !waitsForItself else { return false }
                if try OutboxQueries.hasOperations(plugin: operation.plugin, entity: entity, in: db)
                    || Self.reachedRemoteMeanwhile(entity, waiting: operation, in: db)
                {
                    try OutboxQueries.wait(operation.sequence, for: entity, reason: reason, in: db)
                    return true
                }
                return false
            }
            if !parked {
                let gone =
                    waitsForItself
                    ? "\(reason); \(entity) is this operation's own entity, with nothing before it to send, so this cannot go"
                    : "\(reason); \(entity) has nothing left to send (it was discarded), so this cannot go"
                try await apply(
                    .deadLetter(reason: gone, attempts: operation.attempts),
                    to: operation,
                    policy: policy,
                    plugin: plugin,
                    refused: refused,
                    now: now
                )
            }
        case .resolveConflict(let status, let reason, let remote):
            try await resolveConflict(
                operation,
                status: status,
                reason: reason,
                remote: remote,
                policy: policy,
                plugin: plugin,
                now: now
            )
        }
    }

    /// Whether `entity`, which `waiting` was to wait for and which has nothing left to send,
    /// left the outbox by reaching the remote (it has the remote's id) while `waiting` was
    /// being sent beside it: with several deliveries at once, the plugin can look while the
    /// entity's last send is in flight and answer `waitsFor` after it was delivered. Then
    /// `waiting` goes again at once, rather than end a dead letter that says the entity was
    /// discarded. Once only: an operation that already waited for it and is sent to wait
    /// again can never go.
    static func reachedRemoteMeanwhile(_ entity: String, waiting: QueuedOperation, in db: Database) throws -> Bool {
        guard waiting.dependsOn != entity else { return false }
        return try IDMappings.remoteID(plugin: waiting.plugin, localID: entity, in: db) != nil
    }

    /// The remote answered a request: connectivity is proven without a probe, and the next
    /// request that gets no answer goes again at once.
    func answered() async {
        unanswered = 0
        await runtime.connectivity.reportReachable()
    }

    /// Writes even when the task was cancelled, so that shutting down never loses an outcome.
    func writeEvenIfCancelled<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if Task.isCancelled {
            try runtime.store.writeBlocking(updates)
        } else {
            try await runtime.store.write(updates)
        }
    }

    /// Pulls one plugin; offline failures are quiet, others are reported.
    func pull(_ plugin: any SyncPlugin) async {
        let name = plugin.pluginName
        do {
            summary.pulls[name] = try await runtime.pull(name)
            await answered()
            if let context = runtime.context(for: name) { await plugin.afterPull(context) }
        } catch {
            switch FailureClass.classify(error, now: runtime.clock.now()) {
            case .offline(let reason):
                runtime.logger.debug("\(name): pull skipped, no answer (\(reason))")
                await runtime.connectivity.reportUnreachable()
            case .unauthorized(let reason):
                let refused = (error as? RemoteFailure)?.refusedCredential
                try? await runtime.store.write { db in
                    try PluginState.holdForLogin(name, reason: reason, credential: refused, in: db)
                }
                runtime.events.emit(.needsLogin(plugin: name, reason: reason))
            case .transient(let reason, _), .rejected(let reason), .conflict(_, let reason, _),
                .waitsFor(_, let reason), .misconfigured(let reason):
                summary.pullFailures[name] = reason
                // The runner says it (the summary of `run --once`, a sentence of `run`): a
                // warning here would say it twice.
                runtime.logger.notice("\(name): pull failed: \(reason)")
                runtime.events.emit(.pullFailed(plugin: name, reason: reason))
            }
        }
    }
}
