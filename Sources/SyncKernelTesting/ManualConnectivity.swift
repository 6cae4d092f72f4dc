import SyncKernel
import Synchronization

/// Connectivity a test sets by hand.
public final class ManualConnectivity: ConnectivityMonitor {
    private let state: Mutex<ConnectivityState>

    public init(_ initial: ConnectivityState = .online) {
        state = Mutex(initial)
    }

    public func set(_ newValue: ConnectivityState) {
        state.withLock { $0 = newValue }
    }

    public func current() async -> ConnectivityState { state.withLock { $0 } }
}
