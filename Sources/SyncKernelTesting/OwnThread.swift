import Foundation

/// Runs `body`, which blocks (waits for a process, reads a pipe to its end, sleeps in a
/// polling loop), on a thread of its own and returns its result.
///
/// Never block on Swift's cooperative pool in a test: it has one thread per core, and a
/// server the test serves from the same process (a FerryServer, a demo server) needs them
/// to answer the very process being waited for. Two blocked tests on a 2-core machine
/// stall every other test until a timeout.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}
