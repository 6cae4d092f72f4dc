import Foundation

/// The kernel's source of time: what time it is, and a way to wait until a moment.
///
/// The kernel never calls `Date()` itself, and waits for what it schedules (polls,
/// backoffs, probes) through its clock, so that tests can run hours of backoff in
/// milliseconds with `TestClock` from `SyncKernelTesting`.
public protocol KernelClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Suspends until `deadline` or until the task is cancelled (then throws `CancellationError`).
    func sleep(until deadline: Date) async throws
}

/// The wall clock.
public struct SystemClock: KernelClock {
    /// The wall clock.
    public init() {}

    /// The current wall-clock time.
    public func now() -> Date { Date() }

    /// Sleeps until `deadline` (returns at once when it has passed); throws `CancellationError` when the task is cancelled.
    public func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSinceNow
        guard seconds > 0 else { return }
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }
}
