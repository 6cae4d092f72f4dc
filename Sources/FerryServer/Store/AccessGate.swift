import Synchronization

/// Who may use the database connection now: any number of single accesses at once, or one
/// batch alone (it keeps a transaction open across its sub-requests, and nothing else may
/// run on the connection inside it). Waiters are served in turn: a waiting batch holds
/// back new single accesses, and a batch that ends lets every waiting access in.
final class AccessGate: Sendable {
    private struct State {
        var shared = 0
        var exclusive = false
        var waitingShared: [CheckedContinuation<Void, Never>] = []
        var waitingExclusive: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Enters for one single access; waits while a batch holds or waits for the connection.
    func enterShared() async {
        let entered = state.withLock { state in
            guard !state.exclusive, state.waitingExclusive.isEmpty else { return false }
            state.shared += 1
            return true
        }
        if entered { return }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if !state.exclusive, state.waitingExclusive.isEmpty {
                    state.shared += 1
                    return true
                }
                state.waitingShared.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func leaveShared() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.shared -= 1
            guard state.shared == 0, !state.waitingExclusive.isEmpty else { return nil }
            state.exclusive = true
            return state.waitingExclusive.removeFirst()
        }
        next?.resume()
    }

    /// Enters alone; waits until the single accesses in progress have left.
    func enterExclusive() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if !state.exclusive, state.shared == 0 {
                    state.exclusive = true
                    return true
                }
                state.waitingExclusive.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func leaveExclusive() {
        let next = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if !state.waitingShared.isEmpty {
                state.exclusive = false
                let waiting = state.waitingShared
                state.waitingShared = []
                state.shared += waiting.count
                return waiting
            }
            if !state.waitingExclusive.isEmpty { return [state.waitingExclusive.removeFirst()] }
            state.exclusive = false
            return []
        }
        for continuation in next { continuation.resume() }
    }
}
