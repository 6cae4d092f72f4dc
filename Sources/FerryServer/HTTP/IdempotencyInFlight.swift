import Synchronization

/// Idempotency keys being processed right now, so a concurrent duplicate waits instead of running twice.
final class IdempotencyInFlight: Sendable {
    private let keys = Mutex<Set<String>>([])

    /// Claims `key`; false when another request holds it.
    func claim(_ key: String) -> Bool {
        keys.withLock { $0.insert(key).inserted }
    }

    func release(_ key: String) {
        _ = keys.withLock { $0.remove(key) }
    }
}
