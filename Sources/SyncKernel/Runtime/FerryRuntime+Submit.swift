import Foundation
import GRDB

/// What became of a write a plugin submitted.
public enum SubmitResult: Sendable {
    /// Stored locally and queued (or coalesced) for the runner to send.
    case queued(EnqueueResult)
    /// An online-only operation that reached the remote now.
    case sent(SendOutcome)

    /// Whether the write waits in the queue (rather than having reached the remote).
    public var isQueued: Bool {
        if case .queued = self { return true }
        return false
    }
}

extension FerryRuntime {
    /// Carries out `operation` as its policy says: queued, with `local` (the local state
    /// the user sees until the remote answers) in one transaction; or, when online-only,
    /// sent now, and the send outcome's `LocalChange` (the remote's answer) committed once
    /// the remote agreed: `local` is for queued operations only. `local` must only change
    /// the database: it can run twice (see `FerryStore.write`).
    public func submit(
        _ operation: NewOperation,
        local: @escaping @Sendable (Database) throws -> Void = { _ in }
    ) async throws -> SubmitResult {
        let policy = outbox.policies.policy(plugin: operation.plugin, kind: operation.kind)
        switch policy.delivery {
        case .queued:
            let committed = try await commit { db, queue in
                try local(db)
                queue.enqueue(operation)
            }
            return .queued(committed.results.first ?? .cancelled)
        case .onlineOnly:
            let outcome = try await sendNow(operation)
            if let apply = outcome.acknowledgement?.apply { try await store.write(apply) }
            return .sent(outcome)
        }
    }

    /// Sends `operation` now, without queueing it. Fails at once with `requires_connection`
    /// when its network requirement does not hold, and with the remote's reason otherwise;
    /// an outcome other than `delivered` or `alreadyDone` is thrown as an error that says
    /// what it means (its local change is not made: nothing was queued).
    public func sendNow(_ operation: NewOperation) async throws -> SendOutcome {
        guard let plugin = registry.plugin(named: operation.plugin), let base = context(for: operation.plugin)
        else {
            throw FerryError(
                .plugin,
                "the \(operation.plugin) plugin is not enabled; enable it in \(configuration.file)"
            )
        }
        let policy = outbox.policies.policy(plugin: operation.plugin, kind: operation.kind)
        let state = await connectivity.current()
        guard state.satisfies(policy.requirement) else {
            throw FerryError(
                .requiresConnection,
                "\(operation.plugin) \(operation.kind) requires a connection\(policy.requirement == .unmetered ? " that is not metered" : ""); nothing was changed. Connect and try again (cached data stays readable)"
            )
        }
        let now = clock.now()
        let queued = QueuedOperation(
            sequence: 0,
            id: UUID.timeOrdered(at: now),
            plugin: operation.plugin,
            kind: operation.kind,
            entity: operation.entity,
            payload: operation.payload,
            base: operation.base,
            createdAt: now,
            attempts: 0,
            nextAttemptAt: now,
            state: .inFlight,
            dispatched: true,
            force: false,
            requiresUnmetered: policy.requirement == .unmetered,
            account: await credentials.account()
        )
        let context = { base.sending(queued) }
        let signIn = signInRemedy
        let send = {
            let outcome = try await plugin.send(queued, context: context())
            if let (failure, _) = outcome.failure { throw Self.explain(failure, operation: operation, signIn: signIn) }
            return outcome
        }
        do {
            return try await send()
        } catch where Self.gotNoAnswer(error, now: now) {
            // No answer is a question for the probe: if the remote answers it, the operation
            // goes once more with the same keys, and the remote replays what it did.
            await connectivity.reportUnreachable()
            guard await connectivity.current().reachable else { throw Self.explain(error, operation: operation, now: now, signIn: signIn) }
            do {
                return try await send()
            } catch {
                throw Self.explain(error, operation: operation, now: now, signIn: signIn)
            }
        } catch {
            throw Self.explain(error, operation: operation, now: now, signIn: signIn)
        }
    }

    private static func gotNoAnswer(_ error: any Error, now: Date) -> Bool {
        if case .offline = FailureClass.classify(error, now: now) { return true }
        return false
    }

    /// Turns a send failure into an error a person can act on.
    static func explain(_ error: any Error, operation: NewOperation, now: Date, signIn: Remedy) -> any Error {
        if error is FerryError || error is CancellationError { return error }
        return explain(FailureClass.classify(error, now: now), operation: operation, underlying: error, signIn: signIn)
    }

    /// Turns a failure class into an error a person can act on.
    private static func explain(
        _ failure: FailureClass,
        operation: NewOperation,
        underlying error: (any Error)? = nil,
        signIn: Remedy
    ) -> FerryError {
        let what = "\(operation.plugin) \(operation.kind)"
        switch failure {
        case .offline(let reason):
            return FerryError(
                .requiresConnection,
                "\(what) got no answer from the remote (\(reason)): if it reached the remote, it may have been taken there. Nothing was changed on this device; once connected, look before doing it again",
                underlying: error
            )
        case .unauthorized:
            return FerryError(
                .needsLogin,
                "\(what) was refused: the session has ended",
                underlying: error,
                remedy: signIn
            )
        case .transient(let reason, let retryAfter):
            let wait = retryAfter.map { "; try again in \(Int($0.rounded(.up))) s" } ?? "; try again later"
            return FerryError(.remoteUnavailable, "\(what) failed: \(reason)\(wait)", underlying: error)
        case .conflict(_, let reason, _):
            return FerryError(.conflict, "\(what) conflicts with the remote: \(reason)", underlying: error)
        case .rejected(let reason):
            return FerryError(.rejected, "\(what) was rejected: \(reason)", underlying: error)
        case .misconfigured(let reason):
            return FerryError(.configuration, "\(what) cannot go: \(reason)", underlying: error)
        case .waitsFor(_, let reason):
            return FerryError(.remoteUnavailable, "\(what) cannot go yet: \(reason); try again once it has been sent", underlying: error)
        }
    }
}
