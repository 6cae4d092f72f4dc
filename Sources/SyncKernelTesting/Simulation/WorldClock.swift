import Foundation
import SyncKernel
import Synchronization

/// Virtual time for a simulation: it moves only when the simulation waits, or when the one
/// thing running (a device's sync) sleeps, and then it jumps to the sleeper's deadline.
///
/// A simulation runs one thing at a time, so a sleeper is never woken by anything but the
/// passing of time: jumping there at once is what the real clock would do, days in
/// microseconds.
public final class WorldClock: Sendable {
    private let current: Mutex<Date>

    /// When a world starts unless told otherwise.
    public static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A world that starts at `start`.
    public init(start: Date = WorldClock.start) {
        current = Mutex(start)
    }

    /// The world's time.
    public var now: Date { current.withLock { $0 } }

    /// Moves time forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(max(0, seconds)) }
    }

    /// Moves time forward to `moment`; never backwards.
    public func advance(to moment: Date) {
        current.withLock { now in if moment > now { now = moment } }
    }
}

/// A device's clock: the world's time, off by the device's own skew (devices' clocks
/// disagree), as a `KernelClock` for its runtime.
public final class DeviceClock: KernelClock {
    /// The world's clock, which this one follows.
    let world: WorldClock
    private let skewing: Mutex<TimeInterval>

    /// A clock `skew` seconds ahead of the world (behind when negative).
    public init(world: WorldClock, skew: TimeInterval = 0) {
        self.world = world
        self.skewing = Mutex(skew)
    }

    /// Sets how far ahead of the world this clock is.
    public func setSkew(_ seconds: TimeInterval) { skewing.withLock { $0 = seconds } }

    /// How far ahead of the world this clock is (behind when negative).
    public var skew: TimeInterval { skewing.withLock { $0 } }

    public func now() -> Date { world.now.addingTimeInterval(skew) }

    /// Jumps the world to the deadline (in the world's time) and returns.
    public func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        world.advance(to: deadline.addingTimeInterval(-skew))
    }
}
