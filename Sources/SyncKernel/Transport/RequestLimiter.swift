/// At most `permits` requests on the wire at once; the others wait their turn, in order.
///
/// The engine's deliveries share one, so that requests that leave a batch to go alone
/// stay within `sync.concurrency`.
actor RequestLimiter {
    private var available: Int
    private var queue: [CheckedContinuation<Void, Never>] = []

    init(permits: Int) {
        available = max(1, permits)
    }

    /// Runs `body` once a permit is free.
    nonisolated func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        do {
            let value = try await body()
            await release()
            return value
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { queue.append($0) }
    }

    private func release() {
        if queue.isEmpty {
            available += 1
        } else {
            queue.removeFirst().resume()
        }
    }
}
