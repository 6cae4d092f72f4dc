import Foundation
import ServiceLifecycle
import SyncKernel
import SyncKernelCLI

/// Prints the kernel's events as they happen, one line each, while `ferry run` works: a
/// phrase for people, or with `--json` one JSON object per event (`EventView`).
struct EventPrinter: Service {
    let events: EventBus
    let json: Bool
    /// The time an event is stamped with.
    let now: @Sendable () -> Date
    /// Printed to standard error once the runner handles SIGINT and SIGTERM.
    let banner: String
    /// The owning plugin's words for a conflict, if it has any.
    let describeConflict: @Sendable (ConflictReport) -> String?

    func run() async throws {
        let stream = events.subscribe()
        Output.warn(banner)
        await withGracefulShutdownHandler {
            for await event in stream.cancelOnGracefulShutdown() {
                if json {
                    let view = EventView(event, time: now(), describeConflict: describeConflict)
                    do { try Output.printJSONLine(view) } catch { Output.warn("ferry: an event could not be written as JSON: \(error)") }
                } else if let line = Self.describe(event, conflict: describeConflict) {
                    // Unbuffered: a log file sees each event as it happens, not at exit.
                    FileHandle.standardOutput.write(Data((line + "\n").utf8))
                }
            }
        } onGracefulShutdown: {
        }
    }

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
        }
    }
}
