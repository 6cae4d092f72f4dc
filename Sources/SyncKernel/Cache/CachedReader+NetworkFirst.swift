import Foundation

extension CachedReader {
    /// Reads from the remote first: its answer when it gives one; the cache when there is
    /// no connection, or when the remote fails in a way that may pass (a 5xx, a 429); an
    /// error that says which of the two when the cache holds nothing. For a read whose
    /// fresh answer holds more than the cache keeps (a round's live tallies).
    ///
    /// The failure is read by the kernel (`FailureClass`), as a send's is: a plugin never
    /// sorts them itself. No answer also tells connectivity that the remote is unreachable.
    ///
    /// - Parameters:
    ///   - what: what is read, for errors ("your groups").
    ///   - fetch: asks the remote and stores what the cache keeps of the answer; returns it.
    ///   - cache: the cached value, or nil when nothing is cached. It must read only the store.
    /// - Returns: the remote's answer (origin `network`), or the cached one with `offline`
    ///   or `remoteFailure` saying why.
    /// - Throws: `requires_connection` with no connection and nothing cached,
    ///   `remote_unavailable` when the remote failed and nothing is cached, and any other
    ///   failure of `fetch` as it is (a refusal, an answer that cannot be read).
    public func networkFirst<Value: Sendable>(
        _ what: String,
        fetch: () async throws -> Value,
        cache: () async throws -> CacheSnapshot<Value>?
    ) async throws -> CachedRead<Value> {
        var fallback: (offline: String?, failure: String?)
        let state = await connectivity.current()
        if state.reachable {
            do {
                return CachedRead(value: try await fetch(), origin: .network, hasPendingWrites: false)
            } catch {
                switch FailureClass.classify(error, now: clock.now()) {
                case .offline(let reason):
                    await connectivity.reportUnreachable()
                    fallback = ("the remote did not answer: \(reason)", nil)
                case .transient(let reason, _):
                    fallback = (nil, reason)
                default:
                    throw error
                }
            }
        } else {
            fallback = ("the network is \(state.summary)", nil)
        }
        guard let cached = try await cache() else {
            if let failure = fallback.failure {
                throw FerryError(
                    .remoteUnavailable,
                    "reading \(what) failed: the remote is unavailable (\(failure)) and nothing is cached here; try again later"
                )
            }
            throw FerryError(
                .requiresConnection,
                "reading \(what) needs a connection (\(fallback.offline ?? "offline")) and nothing is cached here; connect and try again"
            )
        }
        logger.debug("\(what): served from the cache: \(fallback.failure ?? fallback.offline ?? "")")
        var read = CachedRead(value: cached.value, origin: .cache, hasPendingWrites: cached.hasPendingWrites)
        (read.offline, read.remoteFailure) = fallback
        return read
    }
}
