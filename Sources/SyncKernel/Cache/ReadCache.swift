import Foundation
import Synchronization

/// The memory tier of cached reads: the results of recent reads, answered without SQLite
/// while the store is unchanged.
///
/// Every entry belongs to one stamp of the store (`FerryStore.stamp()`); when the stamp
/// moves (a local write, a pull, the runner acknowledging an operation, a write by another
/// process), every entry is dropped at the next read. A read therefore never returns a
/// value older than the store's, at the cost of re-reading after any write. At most
/// `capacity` results are kept; the least recently used go first.
///
/// `CachedReader(runtime:)` reads through the runtime's tier; `read(_:key:cache:refresh:)`
/// names what a result is, so that two reads with the same key share it.
public final class ReadCache: Sendable {
    /// What the tier did since it was created.
    public struct Statistics: Sendable, Equatable {
        /// Reads answered from memory.
        public var hits = 0
        /// Reads that went to SQLite.
        public var misses = 0
        /// Results dropped to stay within the capacity.
        public var evictions = 0
        /// Results held now.
        public var entries = 0

        /// Hits over all reads, 0 to 1 (0 before any read).
        public var hitRate: Double {
            hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses)
        }
    }

    private struct Entry {
        var value: any Sendable
        var lastUse: UInt64
    }

    private struct State {
        var stamp: Int64?
        var entries: [String: Entry] = [:]
        var uses: UInt64 = 0
        var statistics = Statistics()
    }

    /// Most results held; 0 turns the tier off (every read goes to SQLite).
    public let capacity: Int
    let store: FerryStore
    private let state = Mutex(State())

    /// A tier of at most `capacity` results in front of `store`.
    public init(store: FerryStore, capacity: Int) {
        self.store = store
        self.capacity = max(0, capacity)
    }

    /// What the tier did so far.
    public var statistics: Statistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.entries = state.entries.count
            return statistics
        }
    }

    /// The result of `key` as of now: from memory when the store has not changed since it
    /// was read, else from `load`, kept for the next read.
    ///
    /// `load` must read only the store: its result is reused until the store changes.
    public func value<Value: Sendable>(
        for key: String,
        load: @Sendable () async throws -> Value
    ) async throws -> Value {
        guard capacity > 0 else { return try await load() }
        let stamp = try store.stamp()
        let held = state.withLock { state -> Value? in
            if state.stamp != stamp {
                state.entries.removeAll(keepingCapacity: true)
                state.stamp = stamp
            }
            state.uses += 1
            guard let entry = state.entries[key], let value = entry.value as? Value else {
                state.statistics.misses += 1
                return nil
            }
            state.entries[key]?.lastUse = state.uses
            state.statistics.hits += 1
            return value
        }
        if let held { return held }
        let value = try await load()
        state.withLock { state in
            // Kept only under the stamp taken before reading: a commit since then has
            // moved the stamp, and the value may predate it.
            guard state.stamp == stamp else { return }
            state.entries[key] = Entry(value: value, lastUse: state.uses)
            evictIfFull(&state)
        }
        return value
    }

    /// Drops every result held.
    public func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }

    /// Drops the least recently used eighth of the results when over capacity: one sort
    /// for many inserts.
    private func evictIfFull(_ state: inout State) {
        guard state.entries.count > capacity else { return }
        let excess = state.entries.count - capacity + max(1, capacity / 8)
        let oldest = state.entries.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(excess)
        for (key, _) in oldest { state.entries[key] = nil }
        state.statistics.evictions += oldest.count
    }
}
