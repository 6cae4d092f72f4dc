import Foundation
import Logging

/// Runs a read under a `CachePolicy`: the cache first (delivered at once), then the
/// network when the policy and connectivity allow, then the refreshed cache.
///
/// The network step refreshes the cache (a pull); values are always read back from the
/// cache, so they include local writes that are still pending. Network failures while
/// offline are logged at debug level and never fail a read that has a cached answer.
///
/// The cache has two tiers: SQLite, and in front of it the runtime's `ReadCache` in
/// memory, which answers a read named by a `key` while the store has not changed since.
///
/// ```swift
/// let reader = CachedReader(runtime: runtime)
/// let last = try await reader.read(
///     .cacheThenNetwork,
///     key: "movies.all",
///     cache: {
///         try await store.read { db in
///             CacheSnapshot(value: try Movie.all(db), hasPendingWrites: try Movie.hasPending(db))
///         }
///     },
///     refresh: { _ = try await plugin.pull(context) },
///     deliver: { print($0.value) })
/// ```
public struct CachedReader: Sendable {
    let connectivity: any ConnectivityMonitor
    let clock: any KernelClock
    let logger: Logger
    /// The memory tier keyed reads go through; nil: every read goes to SQLite.
    let memory: ReadCache?
    /// How often a watcher looks for writes made by other processes.
    let watchInterval: TimeInterval

    /// Creates a reader that asks `connectivity` before any network request, with `memory`
    /// in front of SQLite for keyed reads.
    public init(
        connectivity: any ConnectivityMonitor,
        clock: any KernelClock = SystemClock(),
        logger: Logger = Logger(label: "ferry.cache"),
        memory: ReadCache? = nil,
        watchInterval: TimeInterval = 0.02
    ) {
        self.connectivity = connectivity
        self.clock = clock
        self.logger = logger
        self.memory = memory
        self.watchInterval = watchInterval
    }

    /// A reader for `runtime`: its connectivity, clock and logger, its memory tier, and
    /// its watch interval (`read_cache:` in the configuration).
    public init(runtime: FerryRuntime) {
        self.init(
            connectivity: runtime.connectivity,
            clock: runtime.clock,
            logger: runtime.logger,
            memory: runtime.readCache,
            watchInterval: runtime.configuration.kernel.readCache.watchInterval.value
        )
    }

    /// Reads under `policy`.
    ///
    /// - Parameters:
    ///   - policy: whether the cache is shown, and when the network is asked.
    ///   - key: names the read in the memory tier (say `"movies.list.watched"`): a read
    ///     with the same key while the store is unchanged is answered from memory. Two
    ///     reads that may differ need different keys. Nil: always SQLite.
    ///   - cache: the cached value and whether it includes unsent local writes, or nil
    ///     when the cache holds no answer yet. It must read only the store.
    ///   - refresh: brings the cache up to date from the remote.
    ///   - deliver: called with each answer as soon as it is known: the cached one, then the refreshed one.
    /// - Returns: the last answer delivered.
    /// - Throws: `requires_connection` when the policy needs the network and there is none
    ///   (`network_only`, or `cache_first` with an empty cache); `not_found` when
    ///   `cache_only` finds nothing cached; and the refresh's own failure when it is not an
    ///   offline one and nothing was delivered.
    @discardableResult
    public func read<Value: Sendable>(
        _ policy: CachePolicy,
        key: String? = nil,
        cache: @escaping @Sendable () async throws -> CacheSnapshot<Value>?,
        refresh: @Sendable () async throws -> Void,
        deliver: @Sendable (CachedRead<Value>) async throws -> Void = { _ in }
    ) async throws -> CachedRead<Value>? {
        let cache = tiered(key, cache)
        var last: CachedRead<Value>?
        let cached = try await cache()
        if policy.showsCache, let cached {
            last = CachedRead(value: cached.value, origin: .cache, hasPendingWrites: cached.hasPendingWrites)
            try await deliver(last!)
        }
        let hit = cached != nil
        guard policy.asksNetwork(cacheHit: hit) else {
            if last == nil, policy == .cacheOnly {
                throw FerryError(
                    .notFound,
                    "nothing is cached yet; read once with a connection (cache_only never asks the network)"
                )
            }
            return last
        }
        let state = await connectivity.current()
        guard state.reachable else {
            return try offline("the network is \(state.summary)", policy: policy, hit: hit, last: last)
        }
        do {
            try await refresh()
        } catch {
            if case .offline(let reason) = FailureClass.classify(error, now: clock.now()) {
                logger.debug("read served from the cache; the remote did not answer: \(reason)")
                await connectivity.reportUnreachable()
                return try offline(reason, policy: policy, hit: hit, last: last)
            }
            guard var served = last else { throw error }
            logger.warning("read served from the cache; refreshing failed: \(error)")
            served.remoteFailure = "\(error)"
            return served
        }
        guard let fresh = try await cache() else { return last }
        let answer = CachedRead(value: fresh.value, origin: .network, hasPendingWrites: fresh.hasPendingWrites)
        try await deliver(answer)
        return answer
    }

    /// `cache` behind the memory tier when the read has a key and the reader a tier.
    func tiered<Value: Sendable>(
        _ key: String?,
        _ cache: @escaping @Sendable () async throws -> CacheSnapshot<Value>?
    ) -> @Sendable () async throws -> CacheSnapshot<Value>? {
        guard let key, let memory else { return cache }
        return { try await memory.value(for: key, load: cache) }
    }

    private func offline<Value: Sendable>(
        _ reason: String,
        policy: CachePolicy,
        hit: Bool,
        last: CachedRead<Value>?
    ) throws -> CachedRead<Value>? {
        if policy.requiresNetwork(cacheHit: hit) {
            throw FerryError(
                .requiresConnection,
                "this read needs the network (cache policy \(policy.rawValue)) and there is none: \(reason); connect, or use cache_then_network"
            )
        }
        logger.debug("offline: \(reason); showing cached data")
        guard var result = last else { return nil }
        result.offline = reason
        return result
    }
}
