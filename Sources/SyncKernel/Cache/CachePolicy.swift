/// How a read uses the local cache and the network.
///
/// Reads in Ferry answer from SQLite first; the policy says whether, and when, the
/// remote is asked as well. The names are the kernel's YAML values.
///
/// ```yaml
/// movies:
///   cache_policy: cache_then_network
/// ```
public enum CachePolicy: String, Codable, Sendable, CaseIterable {
    /// Only the cache; the network is never asked (works the same offline).
    case cacheOnly = "cache_only"
    /// The cache when it holds an answer, else the network.
    case cacheFirst = "cache_first"
    /// The cache at once, then the network to refresh it when a connection is there.
    case cacheThenNetwork = "cache_then_network"
    /// Always the network; fails with `requires_connection` when there is none.
    case networkOnly = "network_only"

    /// Whether the cached answer is shown before (or instead of) the network's.
    public var showsCache: Bool {
        self != .networkOnly
    }

    /// Whether the network is asked, given whether the cache held an answer.
    public func asksNetwork(cacheHit: Bool) -> Bool {
        switch self {
        case .cacheOnly: false
        case .cacheFirst: !cacheHit
        case .cacheThenNetwork, .networkOnly: true
        }
    }

    /// Whether a missing connection is an error for this policy (only `network_only`,
    /// and `cache_first` when nothing is cached).
    public func requiresNetwork(cacheHit: Bool) -> Bool {
        switch self {
        case .networkOnly: true
        case .cacheFirst: !cacheHit
        case .cacheOnly, .cacheThenNetwork: false
        }
    }
}
