import Synchronization

/// Lets the admin endpoint make the listener go away for a while (set once the server runs).
final class ListenerControl: Sendable {
    private let goAway = Mutex<(@Sendable (Double) async -> Void)?>(nil)
    private let away = Mutex(false)

    func install(_ action: @escaping @Sendable (Double) async -> Void) {
        goAway.withLock { $0 = action }
    }

    /// Stops listening for `seconds`, then listens again on the same port.
    func goAway(for seconds: Double) async {
        let action = goAway.withLock { $0 }
        await action?(seconds)
    }

    var isAway: Bool {
        get { away.withLock { $0 } }
        set { away.withLock { $0 = newValue } }
    }
}
