import Foundation

/// Connectivity from a health probe of the configured remotes plus the Linux interfaces.
///
/// The probe asks each remote's `GET /v1/health` (docs/protocol.md); any HTTP answer means
/// reachable. A result is reused for `interval` while the link stays the same: the kind of
/// link is read on every look (a few files), so that a link that goes down, comes back or
/// turns from Wi-Fi to cellular counts at once. A request that got no answer invalidates
/// the result, and one that got an answer renews it.
actor ProbeConnectivity: ConnectivityMonitor {
    private let remotes: @Sendable () async -> [String]
    private let interval: TimeInterval
    private let timeout: TimeInterval
    private let interfaces: NetworkInterfaces
    private let clock: any KernelClock
    private let executor: any HTTPExecutor
    /// The last result, the kind of link it was found on, and when.
    private var cached: (state: ConnectivityState, link: InterfaceKind, at: Date)?

    /// Creates a monitor that probes `remotes` and trusts a result for `interval` seconds.
    ///
    /// - Parameters:
    ///   - remotes: the base URLs of the remotes; each is probed at `/v1/health` until one
    ///     answers. With no remote, a link that is up is enough.
    ///   - interval: how long, in seconds, a result is reused.
    ///   - timeout: how long, in seconds, a probe waits for its answer.
    ///   - interfaces: where the kind of link is read (tests pass a fake folder).
    ///   - clock: the clock that ages results.
    ///   - executor: what puts the probe on the wire (the runtime's, so tests can replace it).
    public init(
        remotes: @escaping @Sendable () async -> [String],
        interval: TimeInterval = 15,
        timeout: TimeInterval = 3,
        interfaces: NetworkInterfaces = NetworkInterfaces(),
        clock: any KernelClock = SystemClock(),
        executor: any HTTPExecutor = AsyncHTTPExecutor()
    ) {
        self.remotes = remotes
        self.interval = interval
        self.timeout = timeout
        self.interfaces = interfaces
        self.clock = clock
        self.executor = executor
    }

    /// The URL the probe asks for `base`.
    public static func healthURL(of base: String) -> String {
        base.trimmingSuffix("/") + "/v1/health"
    }

    /// The last result while it is younger than `interval` (and not from after now) and the
    /// link is the one it was found on; else a new look: unreachable at once when no interface is up, otherwise
    /// reachable when any remote answers the probe. A cellular link counts as metered.
    public func current() async -> ConnectivityState {
        let now = clock.now()
        let kind = interfaces.primaryKind()
        // A result from the clock's future (the clock was set back since) is as old as can be.
        if let cached, cached.link == kind, (0..<interval).contains(now.timeIntervalSince(cached.at)) {
            return cached.state
        }
        var reachable = kind != .none
        if reachable {
            let bases = await remotes()
            reachable = bases.isEmpty ? true : await anyAnswers(bases)
        }
        let state = ConnectivityState(
            reachable: reachable,
            interface: reachable ? kind : .none,
            metered: kind == .cellular,
            source: "probe"
        )
        cached = (state, kind, now)
        return state
    }

    /// Forgets the last result, so that the next `current()` probes again.
    public func reportUnreachable() async {
        cached = nil
    }

    /// Counts an answered request as a successful probe: the result is renewed, or becomes
    /// reachable when an interface is up.
    public func reportReachable() async {
        let kind = interfaces.primaryKind()
        if let cached, cached.state.reachable, cached.link == kind {
            self.cached = (cached.state, kind, clock.now())
            return
        }
        guard kind != .none else { return }
        let state = ConnectivityState(reachable: true, interface: kind, metered: kind == .cellular, source: "probe")
        cached = (state, kind, clock.now())
    }

    private func anyAnswers(_ bases: [String]) async -> Bool {
        for base in bases {
            let probe = PreparedRequest(
                method: "GET",
                url: Self.healthURL(of: base),
                headers: [("User-Agent", "Ferry"), ("Accept", "application/json")],
                body: nil,
                timeout: timeout
            )
            if (try? await executor.execute(probe, maxBodyBytes: 64 << 10)) != nil { return true }
        }
        return false
    }
}
