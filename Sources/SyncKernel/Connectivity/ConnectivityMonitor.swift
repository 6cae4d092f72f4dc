/// Publishes whether the remotes can be reached.
///
/// The engine asks it before choosing work, and tells it when a send found the remote
/// unreachable so that it looks again.
public protocol ConnectivityMonitor: Sendable {
    /// The state now (an implementation may cache a recent probe).
    func current() async -> ConnectivityState
    /// A request got no answer, or the engine wants a fresh look: the monitor should not
    /// trust its last probe and probe again when asked next.
    func reportUnreachable() async
    /// The remote answered a request: as good as a successful probe.
    func reportReachable() async
}

extension ConnectivityMonitor {
    /// Does nothing: a monitor that keeps no probe result has nothing to forget.
    public func reportUnreachable() async {}
    /// Does nothing: a monitor that keeps no probe result has nothing to renew.
    public func reportReachable() async {}
}
