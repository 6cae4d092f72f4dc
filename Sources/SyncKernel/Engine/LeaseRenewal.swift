import Foundation
import Synchronization

/// Renews the leases of the operations a drain is sending, every third of a lease, so that
/// a send that outlasts its lease (a long download) keeps it and no other runner takes the
/// operation over while this one is still at work.
///
/// One renewal serves the whole drain: a task of its own per delivery (created, asleep,
/// then cancelled) cost a send to a remote that answers at once about a tenth of its time
/// (docs/performance.md).
final class LeaseRenewal: Sendable {
    private struct State {
        var sending: Set<Int64> = []
        var task: Task<Void, Never>?
        var stopped = false
    }

    private let state = Mutex(State())
    private let store: FerryStore
    private let clock: any KernelClock
    private let owner: String
    private let lease: TimeInterval

    /// Renews leases `owner` holds, each for `lease` seconds from the renewal.
    init(store: FerryStore, clock: any KernelClock, owner: String, lease: TimeInterval) {
        self.store = store
        self.clock = clock
        self.owner = owner
        self.lease = lease
    }

    /// `operations` are being sent: their leases are renewed until `done(_:)`. The first
    /// call starts the renewals.
    func sending(_ operations: [QueuedOperation]) {
        state.withLock { state in
            state.sending.formUnion(operations.lazy.map(\.sequence))
            guard state.task == nil, !state.stopped else { return }
            state.task = renewals()
        }
    }

    /// `operations` are no longer being sent.
    func done(_ operations: [QueuedOperation]) {
        state.withLock { state in
            for operation in operations { state.sending.remove(operation.sequence) }
        }
    }

    /// Ends the renewals (the drain is over).
    func stop() {
        let task = state.withLock { state in
            state.stopped = true
            return state.task
        }
        task?.cancel()
    }

    private func renewals() -> Task<Void, Never> {
        let (store, clock, owner, lease) = (store, clock, owner, lease)
        return Task { [self] in
            while !Task.isCancelled {
                // Real time, not the kernel's clock: a lease guards against other processes,
                // and a test clock's sleepers are the tests' to count.
                try? await Task.sleep(for: .seconds(lease / 3))
                guard !Task.isCancelled else { return }
                let sequences = self.state.withLock { Array($0.sending) }
                guard !sequences.isEmpty else { continue }
                let until = clock.now().addingTimeInterval(lease)
                try? await store.write { db in
                    try OutboxQueries.renewLeases(sequences, owner: owner, until: until, in: db)
                }
            }
        }
    }
}
