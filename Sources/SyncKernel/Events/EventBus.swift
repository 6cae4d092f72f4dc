import Foundation
import Synchronization

/// A typed broadcast of `SyncEvent`s: every subscriber gets every event emitted after it subscribed.
public final class EventBus: Sendable {
    private let subscribers = Mutex<[UUID: AsyncStream<SyncEvent>.Continuation]>([:])

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

    /// Hands `event` to every current subscriber; it never waits for them.
    public func emit(_ event: SyncEvent) {
        let targets = subscribers.withLock { Array($0.values) }
        for continuation in targets { continuation.yield(event) }
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
