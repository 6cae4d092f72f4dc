import Foundation
import Synchronization

/// The `Idempotency-Key`s of one operation's send, set by the kernel, never by a plugin.
///
/// The first write of a send carries the operation's id; a later write of the same send
/// (a recipe's photo after the recipe) carries `<id>.2`, `<id>.3`, ... So every write of a
/// resend, after a crash or a lost answer, finds the answer the remote stored for it. The
/// writes of one send go one after another, so the numbering is the same each time.
final class IdempotencyKeys: Sendable {
    private let base: String
    private let sent = Mutex(0)
    private let replay = Mutex(false)
    private let changes = Mutex<ClosedRange<Int>?>(nil)

    init(operation id: UUID) {
        base = id.lowercasedString
    }

    /// Whether the remote answered one of these writes from its record of an earlier
    /// attempt (`Idempotent-Replayed: true`): an answer that may be older than what was
    /// pulled since.
    var answeredFromRecord: Bool { replay.withLock { $0 } }

    /// Notes that the remote answered a write from its record.
    func noteReplay() { replay.withLock { $0 = true } }

    /// The lowest and highest change numbers the remote gave with these writes' answers
    /// (`Ferry-Change`); nil when it gave none.
    var changeNumbers: ClosedRange<Int>? { changes.withLock { $0 } }

    /// Notes the change number a write's answer gave.
    func noteChange(_ change: Int) {
        changes.withLock { $0 = $0.map { min($0.lowerBound, change)...max($0.upperBound, change) } ?? change...change }
    }

    /// The key of the next write.
    func next() -> String {
        let number = sent.withLock { count in
            count += 1
            return count
        }
        return number == 1 ? base : "\(base).\(number)"
    }
}
