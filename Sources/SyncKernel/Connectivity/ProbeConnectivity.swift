import AsyncHTTPClient
import Foundation

/// Connectivity from a health probe of the configured remotes plus the Linux interfaces.
///
/// A probe result is reused for `interval`; a send that got no answer invalidates it.
public actor ProbeConnectivity: ConnectivityMonitor {
    private let probeURLs: @Sendable () async -> [String]
    private let interval: TimeInterval
    private let interfaces: NetworkInterfaces
    private let clock: any KernelClock
    private var cached: (state: ConnectivityState, at: Date)?

    /// - Parameter probeURLs: the URLs whose answer (any HTTP status) means "reachable".
    public init(
        probeURLs: @escaping @Sendable () async -> [String],
        interval: TimeInterval = 15,
        interfaces: NetworkInterfaces = NetworkInterfaces(),
        clock: any KernelClock = SystemClock()
    ) {
        self.probeURLs = probeURLs
        self.interval = interval
        self.interfaces = interfaces
        self.clock = clock
    }

    public func current() async -> ConnectivityState {
        let now = clock.now()
        if let cached, now.timeIntervalSince(cached.at) < interval { return cached.state }
        let kind = interfaces.primaryKind()
        var reachable = kind != .none
        if reachable {
            let urls = await probeURLs()
            reachable = urls.isEmpty ? true : await anyAnswers(urls)
        }
        let state = ConnectivityState(
            reachable: reachable,
            interface: reachable ? kind : .none,
            metered: kind == .cellular,
            source: "probe"
        )
        cached = (state, now)
        return state
    }

    public func reportUnreachable() async {
        cached = nil
    }

    private func anyAnswers(_ urls: [String]) async -> Bool {
        for url in urls {
            var request = HTTPClientRequest(url: url)
            request.method = .GET
            if let response = try? await AsyncHTTPExecutor.client.execute(request, timeout: .seconds(3)) {
                _ = try? await response.body.collect(upTo: 64 << 10)
                return true
            }
        }
        return false
    }
}
