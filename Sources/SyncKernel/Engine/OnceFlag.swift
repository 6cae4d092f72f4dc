import Synchronization

/// A flag that is set once, by one task, and read by others.
final class OnceFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
