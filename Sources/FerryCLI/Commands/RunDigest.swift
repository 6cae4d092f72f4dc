import Foundation
import SyncKernel
import SyncKernelCLI

/// What a running `ferry run` tells people between events: a one-line summary every
/// `interval` in which something happened ("sent 120, 3 retrying, 0 dead, queue 15"),
/// instead of a line per operation.
///
/// A value that counts; the printer decides when to ask for the line, on the runtime's clock.
struct RunDigest: Sendable, Equatable {
    /// The queue as it stands when the line is printed.
    struct Backlog: Sendable, Equatable {
        /// Operations waiting out a backoff before their next attempt.
        var retrying: Int
        /// Dead letters.
        var dead: Int
        /// Operations not sent yet (pending, queued or in flight).
        var queued: Int
    }

    /// How often a line may be printed.
    let interval: TimeInterval
    /// When the next line is due.
    private(set) var nextReport: Date
    private(set) var sent = 0
    private(set) var retried = 0
    private(set) var dead = 0
    private(set) var conflicts = 0
    private(set) var pulled = 0
    private(set) var downloads = TransferTally()

    init(start: Date, interval: TimeInterval = 10) {
        self.interval = interval
        nextReport = start.addingTimeInterval(interval)
    }

    /// Whether something happened since the last line.
    var hasNews: Bool { counted > 0 }

    /// How many events were counted since the last line.
    var counted: Int { sent + retried + dead + conflicts + pulled + downloads.files }

    /// Counts `event` when it is one operation's, one pull's or one download's; returns false for the events
    /// a person is told about at once (connectivity, logins, resyncs) or never.
    @discardableResult
    mutating func record(_ event: SyncEvent) -> Bool {
        switch event {
        case .sent: sent += 1
        case .retrying: retried += 1
        case .dead: dead += 1
        case .conflict: conflicts += 1
        case .pulled(_, let summary) where summary.upserted + summary.deleted > 0:
            pulled += summary.upserted + summary.deleted
        case .transferred: downloads.record(event)
        default: return false
        }
        return true
    }

    /// The line due at `now`, or nil when it is not time yet or nothing happened; asking
    /// at or after `nextReport` starts the next interval either way.
    mutating func report(at now: Date, backlog: Backlog?) -> String? {
        guard now >= nextReport else { return nil }
        nextReport = now.addingTimeInterval(interval)
        guard hasNews else { return nil }
        var parts = ["sent \(Self.count(sent))"]
        if let backlog {
            parts += ["\(Self.count(backlog.retrying)) retrying", "\(Self.count(backlog.dead)) dead"]
        } else {
            parts += ["\(Self.count(retried)) retrying", "\(Self.count(dead)) dead"]
        }
        if conflicts > 0 { parts.append("\(Self.count(conflicts)) conflict\(conflicts == 1 ? "" : "s")") }
        if pulled > 0 { parts.append("pulled \(Self.count(pulled))") }
        if downloads.files > 0 { parts.append(downloads.description) }
        if let backlog { parts.append("queue \(Self.count(backlog.queued))") }
        (sent, retried, dead, conflicts, pulled, downloads) = (0, 0, 0, 0, 0, TransferTally())
        return parts.joined(separator: ", ")
    }

    static func count(_ n: Int) -> String { ProgressLine.grouped(n) }
}

extension RunDigest.Backlog {
    /// The backlog over every plugin of `status`.
    init(_ status: QueueInspector.Status) {
        retrying = status.plugins.reduce(0) { $0 + $1.backingOff }
        dead = status.plugins.reduce(0) { $0 + $1.dead }
        queued = status.plugins.reduce(0) { $0 + $1.pending + $1.queued + $1.inFlight }
    }
}
