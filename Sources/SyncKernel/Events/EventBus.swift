import Foundation
import Synchronization

/// A typed broadcast of `SyncEvent`s: every subscriber gets every event emitted after it subscribed.
public final class EventBus: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<SyncEvent>.Continuation]>([:])
    private let observers = Mutex<[UUID: @Sendable (SyncEvent) -> Void]>([:])

    /// Creates a bus with no subscribers.
    public init() {}

    /// A stream of the events emitted from now on; it ends when the consumer stops iterating
    /// or `finish()` is called. A consumer that falls behind keeps the newest `limit` events.
    public func subscribe(bufferingNewest limit: Int = 1024) -> AsyncStream<SyncEvent> {
        let (stream, continuation) = AsyncStream<SyncEvent>.makeStream(bufferingPolicy: .bufferingNewest(limit))
        let id = UUID()
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Calls `observer` with every event emitted while `body` runs, on the emitting thread
    /// and before `emit` returns: unlike a subscriber's, its count is complete when `body`
    /// returns.
    public func observing<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ observer: @escaping @Sendable (SyncEvent) -> Void,
        during body: () async throws -> Result
    ) async rethrows -> Result {
        let id = UUID()
        observers.withLock { $0[id] = observer }
        defer { _ = observers.withLock { $0.removeValue(forKey: id) } }
        return try await body()
    }

    /// Hands `event` to every current subscriber and observer; it never waits for subscribers.
    public func emit(_ event: SyncEvent) {
        let targets = subscribers.withLock { Array($0.values) }
        for continuation in targets { continuation.yield(event) }
        let observing = observers.withLock { Array($0.values) }
        for observer in observing { observer(event) }
    }

    /// Ends every subscriber's stream.
    public func finish() {
        let targets = subscribers.withLock { subscribers in
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for continuation in targets { continuation.finish() }
    }
}
