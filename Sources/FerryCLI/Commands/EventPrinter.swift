import Foundation
import ServiceLifecycle
import SyncKernel
import SyncKernelCLI
import Synchronization

/// Prints what a running `ferry run` does. By default a one-line summary every
/// `RunDigest.interval` in which something happened, and a sentence at once for what a
/// person acts on (a login, the network); with `--verbose`, a line per event; with
/// `--json`, one JSON object per event (`EventView`).
struct EventPrinter: Service {
    /// How events reach people.
    enum Style: Sendable {
        /// A summary line every so often, and sentences for logins, the network, resyncs.
        case digest
        /// A line per event (`--verbose`).
        case everyEvent
        /// One JSON object per event (`--json`).
        case json
    }

    /// The runtime's events, subscribed before the runner starts so that none is missed.
    let events: AsyncStream<SyncEvent>
    let style: Style
    /// The runtime's clock: it stamps events and times the summary lines.
    let clock: any KernelClock
    /// The queue as it stands, for the summary line; nil when it cannot be read now.
    let backlog: @Sendable () async -> RunDigest.Backlog?
    /// Printed to standard error once the runner handles SIGINT and SIGTERM.
    let banner: String
    /// The owning plugin's words for a conflict, if it has any.
    let describeConflict: @Sendable (ConflictReport) -> String?
    /// Where lines for people go: standard error, unbuffered, so a log file sees each as it
    /// happens; standard output is kept for the `--json` stream.
    var write: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    /// What the summary counts, shared by the event loop and the timer.
    let digest: SharedDigest

    init(
        events: AsyncStream<SyncEvent>,
        style: Style,
        clock: any KernelClock,
        interval: TimeInterval = 10,
        backlog: @escaping @Sendable () async -> RunDigest.Backlog?,
        banner: String,
        describeConflict: @escaping @Sendable (ConflictReport) -> String? = { _ in nil }
    ) {
        self.events = events
        self.style = style
        self.clock = clock
        self.backlog = backlog
        self.banner = banner
        self.describeConflict = describeConflict
        digest = SharedDigest(RunDigest(start: clock.now(), interval: interval))
    }

    /// How many events the summary has counted since its last line (tests wait on it).
    var counted: Int { digest.withLock { $0.counted } }

    func run() async throws {
        Output.warn(banner)
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                if style == .digest { group.addTask { await summarizeEveryInterval() } }
                for await event in events.cancelOnGracefulShutdown() { show(event) }
                group.cancelAll()
            }
        } onGracefulShutdown: {
        }
    }

    private func show(_ event: SyncEvent) {
        switch style {
        case .json:
            let view = EventView(event, time: clock.now(), describeConflict: describeConflict)
            do {
                try Output.printJSONLine(view)
            } catch {
                Output.warn("ferry: an event could not be written as JSON: \(error)")
            }
        case .everyEvent:
            if let line = Self.describe(event, conflict: describeConflict) { write(line) }
        case .digest:
            if digest.withLock({ $0.record(event) }) { return }
            if let sentence = Self.sentence(event) { write(sentence) }
        }
    }

    /// Prints the summary line whenever an interval that saw something ends, on the clock.
    private func summarizeEveryInterval() async {
        while !Task.isCancelled {
            let next = digest.withLock { $0.nextReport }
            do { try await clock.sleep(until: next) } catch { return }
            let now = clock.now()
            let backlog = digest.withLock { $0.hasNews } ? await backlog() : nil
            if let line = digest.withLock({ $0.report(at: now, backlog: backlog) }) { write(line) }
        }
    }

    /// What a person acts on, said at once in the default style: logins, the network,
    /// resyncs, failed pulls. Per-operation events go into the summary instead.
    static func sentence(_ event: SyncEvent) -> String? {
        switch event {
        case .pullFailed(let plugin, let reason): "\(plugin): pull failed: \(reason)"
        case .connectivity(let state): "network: \(state.summary)"
        case .needsLogin(let plugin, _): "\(plugin) needs a login: run `ferry auth login`"
        case .resumedAfterLogin(let plugin): "\(plugin) signed in again: sending its held operations"
        case .resyncing(let plugin, let reason): "\(plugin): \(reason); pulling everything again"
        default: nil
        }
    }

    /// The line of one event with `--verbose`.
    static func describe(
        _ event: SyncEvent,
        conflict describeConflict: (ConflictReport) -> String? = { _ in nil }
    ) -> String? {
        switch event {
        case .enqueued: return nil
        case .sent(let plugin, let kind, let entity, _): return "sent      \(plugin) \(kind) \(entity)"
        case .retrying(let plugin, let kind, _, let attempts, let at, let reason):
            return
                "retrying  \(plugin) \(kind) (attempt \(attempts)) at \(ISO8601DateFormatter().string(from: at)): \(reason)"
        case .waitingForConnectivity(let plugin, _, _): return "waiting   \(plugin): remote unreachable"
        case .dead(let plugin, let kind, let operation, let reason):
            return "dead      \(plugin) \(kind) \(operation.shortID): \(reason)"
        case .conflict(let report):
            return
                "conflict  \(report.plugin) \(report.kind) \(report.entity): \(report.policy.rawValue) kept \(report.outcome)"
                + (describeConflict(report).map { ": \($0)" } ?? "")
        case .connectivity(let state): return "network   \(state.summary)"
        case .needsLogin(let plugin, _): return "login     \(plugin) needs a login: run `ferry auth login`"
        case .resumedAfterLogin(let plugin): return "login     \(plugin) signed in again: sending its held operations"
        case .resyncing(let plugin, let reason): return "resync    \(plugin): \(reason); pulling everything again"
        case .pulled(let plugin, let summary):
            return summary.upserted + summary.deleted == 0
                ? nil : "pulled    \(plugin): \(summary.upserted) changed, \(summary.deleted) deleted"
        case .pullFailed(let plugin, let reason): return "pull      \(plugin) failed: \(reason)"
        case .transferProgress: return nil
        case .transferred(let name, let bytes): return "fetched   \(name) (\(ByteCount(bytes)))"
        }
    }
}

/// The digest the event loop counts into and the timer reads, behind a lock.
final class SharedDigest: Sendable {
    private let state: Mutex<RunDigest>

    init(_ digest: RunDigest) {
        state = Mutex(digest)
    }

    func withLock<Result: Sendable>(_ body: (inout RunDigest) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}
