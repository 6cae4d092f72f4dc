import Foundation

extension CachedReader {
    /// Watches a read: the answers `read` gives (the cached one, then the refreshed one
    /// when the policy asks the network), then a new answer each time the cached value
    /// changes, and only then, whoever changed it: a local write, a pull, another process.
    ///
    /// After a write through this runtime's store the new answer comes at once; after one
    /// by another process, within the reader's watch interval (`read_cache.watch_interval`).
    /// A change to something the read does not return (the runner acknowledging another
    /// entity's operation, say) is read again but not yielded. The stream ends when the
    /// task iterating it is cancelled, and throws what the read throws.
    ///
    /// ```swift
    /// for try await answer in CachedReader(runtime: runtime).watch(.cacheOnly, key: "notes.all", cache: {
    ///     try await runtime.store.read { db in CacheSnapshot(value: try Note.all(db), hasPendingWrites: false) }
    /// }, refresh: {}) {
    ///     render(answer.value)
    /// }
    /// ```
    public func watch<Value: Sendable & Equatable>(
        _ policy: CachePolicy,
        key: String? = nil,
        cache: @escaping @Sendable () async throws -> CacheSnapshot<Value>?,
        refresh: @escaping @Sendable () async throws -> Void
    ) -> AsyncThrowingStream<CachedRead<Value>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    guard let store = memory?.store else {
                        throw FerryError(.usage, "watching needs the runtime's store: make the reader with CachedReader(runtime:)")
                    }
                    // Listened to before the first read, so that no write after it is missed.
                    let changes = store.changes(polling: watchInterval, clock: clock)
                    var shown = try await read(policy, key: key, cache: cache, refresh: refresh) {
                        continuation.yield($0)
                    }
                    let cached = tiered(key, cache)
                    for await _ in changes {
                        guard let snapshot = try await cached() else { continue }
                        guard snapshot.value != shown?.value || snapshot.hasPendingWrites != shown?.hasPendingWrites
                        else { continue }
                        let answer = CachedRead(value: snapshot.value, origin: .cache, hasPendingWrites: snapshot.hasPendingWrites)
                        continuation.yield(answer)
                        shown = answer
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
