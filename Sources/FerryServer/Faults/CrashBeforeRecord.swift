import Synchronization

/// A crash inside a write, for simulations: armed for one request
/// (``InProcessFerryServer/respond(dyingBeforeRecord:method:path:headers:body:)``), it
/// throws ``ServerDied`` where the server is about to record an idempotency answer: after
/// the request's effect, inside the transaction that must hold both. A dead server records
/// nothing more; whatever its transactions had not committed is gone, as after a crash.
///
/// Never armed in a server that listens: there, ``check()`` reads one flag.
final class CrashBeforeRecord: Sendable {
    private struct State {
        var armed = false
        var struck = false
    }

    private let state = Mutex(State())

    /// The next idempotency record kills the server.
    func arm() {
        state.withLock { $0 = State(armed: true) }
    }

    /// Disarms; returns whether the server died since ``arm()``.
    func disarm() -> Bool {
        state.withLock { state in
            defer { state = State() }
            return state.struck
        }
    }

    /// Called just before an idempotency record is written; throws when the server dies there.
    func check() throws {
        let dies = state.withLock { state in
            if state.armed { state.struck = true }
            return state.struck
        }
        if dies { throw ServerDied() }
    }
}

/// The server died inside a request (``CrashBeforeRecord``): it gave no answer.
public struct ServerDied: Error, CustomStringConvertible {
    public var description: String { "the server died before it recorded its answer" }
}
