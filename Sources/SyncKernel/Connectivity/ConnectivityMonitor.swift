/// Publishes whether the remotes can be reached.
///
/// The engine asks it before choosing work, and tells it when a send found the remote
/// unreachable so that it looks again.
public protocol ConnectivityMonitor: Sendable {
    /// The state now (an implementation may cache a recent probe).
    func current() async -> ConnectivityState
    /// A send got no answer: the monitor should treat the remote as unreachable until it probes again.
    func reportUnreachable() async
}

extension ConnectivityMonitor {
    public func reportUnreachable() async {}
}
