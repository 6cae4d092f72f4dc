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
///
/// An operation's credential work (a sign-in, a refresh) goes aside instead (`aside`): it
/// waits until no operation can run and none holds the turn, then every operation's that
/// waits starts at once, and nobody gets the turn again before all have returned. Sends
/// that each need a sign-in thus ask for it at the same moment, as they do when a runner
/// sends concurrently, and whether the provider shares one sign-in among them shows; what
/// runs beside that work is only the others' credential work, never a request of theirs.
/// That work runs at once, so its order is the scheduler's: a provider that shares one
/// sign-in or refresh among its callers gives the same answers in any order, but a caller
/// that asks only after a shared attempt failed makes another.
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
        /// Who waits to go aside.
        var asideWaiting: [Int: CheckedContinuation<Void, Never>] = [:]
        /// How many are aside now.
        var aside = 0

        /// Who goes on now: the lowest that can run, once the turn is free and nobody is
        /// aside, if it waits for the turn; or, when none can run, all who wait to go aside.
        mutating func next() -> [CheckedContinuation<Void, Never>] {
            guard holder == nil, aside == 0 else { return [] }
            if let next = ready.min() {
                guard let waiting = parked.removeValue(forKey: next) else { return [] }
                holder = next
                return [waiting]
            }
            let going = asideWaiting.sorted { $0.key < $1.key }.map(\.value)
            asideWaiting = [:]
            aside = going.count
            return going
        }
    }

    private let state: Mutex<State>

    /// Turns for the operations `0..<participants`, each ready to start.
    init(participants: Int) {
        state = Mutex(State(ready: Set(0..<participants)))
    }

    /// Who waits for the turn now (what a test can see of the state).
    var waiting: Set<Int> {
        state.withLock { Set($0.parked.keys) }
    }

    /// Waits until `who` has the turn: once it is free and `who` is the lowest that can run.
    func take(_ who: Int) async {
        await withCheckedContinuation { continuation in
            let granted = state.withLock { state in
                state.parked[who] = continuation
                return state.next()
            }
            granted.forEach { $0.resume() }
        }
    }

    /// `who` gives the turn up: it has ended, or waits for what another brings (its
    /// answer, which the wire brings with `wake`).
    func release(_ who: Int) {
        state.withLock { state in
            if state.holder == who { state.holder = nil }
            state.ready.remove(who)
            return state.next()
        }.forEach { $0.resume() }
    }

    /// `who` can run again: it takes the turn when it is the lowest that can.
    func wake(_ who: some Sequence<Int>) {
        state.withLock { state in
            state.ready.formUnion(who)
            return state.next()
        }.forEach { $0.resume() }
    }

    /// Runs `work` of `who` aside from the turns: `who` gives the turn up, `work` starts
    /// once no one can run, with the others' that wait to go aside, and `who` takes the
    /// turn again when all of them have returned and it is the lowest that can run.
    func aside<T>(_ who: Int, _ work: () async throws -> T) async rethrows -> T {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if state.holder == who { state.holder = nil }
                state.ready.remove(who)
                state.asideWaiting[who] = continuation
                return state.next()
            }.forEach { $0.resume() }
        }
        do {
            let result = try await work()
            await back(who)
            return result
        } catch {
            await back(who)
            throw error
        }
    }

    /// `who` has returned from aside: it can run again once all have.
    private func back(_ who: Int) async {
        state.withLock { state in
            state.aside -= 1
            state.ready.insert(who)
            return state.next()
        }.forEach { $0.resume() }
        await take(who)
    }

    /// One operation of the batch, for its transport (`HTTPTransport.credentialWork`).
    struct Participant: Sendable {
        let turns: BatchTurns
        let who: Int

        func aside<T>(_ work: () async throws -> T) async rethrows -> T {
            try await turns.aside(who, work)
        }
    }
}
