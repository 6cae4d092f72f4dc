import Synchronization

/// Lets the operations of one batched delivery, and the batch's wire, run one at a time:
/// the lowest in queue order that can run goes next, the wire before any of them.
///
/// An operation holds the turn while its `send` runs: its store reads, its requests to
/// third parties (TMDB), its sends that cannot travel in the batch. It gives the turn up
/// when its request waits in the batch, or when it has ended. Once every operation waits or
/// has ended, the wire takes the turn, sends the batch and wakes the operations it
/// answered. So what the operations do, and in which order their requests meet the network,
/// depends on the queue, never on how tasks were scheduled: a simulation's seed replays the
/// same (`FerryRuntime.Batching.inTurn`).
final class BatchTurns: Sendable {
    /// The batch's wire: before every operation.
    static let wire = -1

    private struct State {
        /// Who runs now, if anyone.
        var holder: Int?
        /// Who can run: the operations that have not started, the ones the wire answered,
        /// and the wire once a batch is ready to leave.
        var ready: Set<Int>
        /// Who waits for the turn.
        var parked: [Int: CheckedContinuation<Void, Never>] = [:]

        /// Gives a free turn to the lowest that can run, if it waits for it.
        mutating func grant() -> CheckedContinuation<Void, Never>? {
            guard holder == nil, let next = ready.min(), let waiting = parked.removeValue(forKey: next) else { return nil }
            holder = next
            return waiting
        }
    }

    private let state: Mutex<State>

    /// Turns for the operations `0..<participants`, each ready to start.
    init(participants: Int) {
        state = Mutex(State(ready: Set(0..<participants)))
    }

    /// Waits until `who` has the turn: once it is free and `who` is the lowest that can run.
    func take(_ who: Int) async {
        await withCheckedContinuation { continuation in
            let granted = state.withLock { state in
                state.parked[who] = continuation
                return state.grant()
            }
            granted?.resume()
        }
    }

    /// `who` gives the turn up: it has ended, or waits for what another brings (its
    /// answer, which the wire brings with `wake`).
    func release(_ who: Int) {
        state.withLock { state in
            if state.holder == who { state.holder = nil }
            state.ready.remove(who)
            return state.grant()
        }?.resume()
    }

    /// `who` can run again: it takes the turn when it is the lowest that can.
    func wake(_ who: some Sequence<Int>) {
        state.withLock { state in
            state.ready.formUnion(who)
            return state.grant()
        }?.resume()
    }
}
