import Foundation
import Synchronization

/// Wakes the watchers of one process when a write through its store ends.
final class WriteSignal: Sendable {
    private struct Waiters {
        var next = 0
        var continuations: [Int: AsyncStream<Void>.Continuation] = [:]
    }

    private let waiters = Mutex(Waiters())

    /// Wakes every watcher; free when there is none.
    func fire() {
        let continuations = waiters.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield() }
    }

    /// Sends a wake-up to `continuation` after each write, until the returned token is removed.
    func add(_ continuation: AsyncStream<Void>.Continuation) -> Int {
        waiters.withLock { waiters in
            waiters.next += 1
            waiters.continuations[waiters.next] = continuation
            return waiters.next
        }
    }

    func remove(_ token: Int) {
        _ = waiters.withLock { $0.continuations.removeValue(forKey: token) }
    }
}

extension FerryStore {
    /// Wakes up when the store may have changed: at once after a write through this store,
    /// and within `interval` after a write by another process (seen through `stamp()`).
    ///
    /// A wake-up says only "look again": compare `stamp()`, or what you read, with the last
    /// time. The polling runs only while someone iterates the stream, on `clock`.
    public func changes(polling interval: TimeInterval, clock: any KernelClock) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let token = writeSignal.add(continuation)
        let poller = Task { [self] in
            var last = try? stamp()
            while !Task.isCancelled {
                try await clock.sleep(until: clock.now().addingTimeInterval(interval))
                let now = try? stamp()
                if now != last {
                    last = now
                    continuation.yield()
                }
            }
        }
        continuation.onTermination = { [writeSignal] _ in
            poller.cancel()
            writeSignal.remove(token)
        }
        return stream
    }
}
