import Foundation

/// A moment the engine waits for in memory: the next pull, the next look at a hold.
///
/// It has come when the clock reaches it, or when it is further ahead than the wait it was
/// set with: the clock was set back since, and waiting for the clock to come round again
/// would stop that work for as long.
struct Deadline: Sendable {
    private var at: Date?
    private var wait: TimeInterval = 0

    /// A deadline that has come.
    init() {}

    /// Whether it has come at `now`.
    func hasCome(at now: Date) -> Bool {
        guard let at else { return true }
        return at <= now || at.timeIntervalSince(now) > wait
    }

    /// Sets it `wait` seconds after `now`.
    mutating func restart(from now: Date, after wait: TimeInterval) {
        at = now.addingTimeInterval(wait)
        self.wait = wait
    }

    /// Makes it come at once.
    mutating func reset() { at = nil }
}
