import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import SyncKernel
import SyncKernelCLI

/// `ferry run`: keeps every enabled plugin in sync.
struct RunCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Sync every enabled plugin: send queued writes, pull remote changes.",
        discussion: Examples.discussion(
            "With --once, does what can be done now, prints a summary (--json: one object) and exits: 0 when nothing is left to do now, 1 when something failed (a dead letter, a failed pull), 75 when work waits for a login, for connectivity, for an unmetered network, for a configuration change or for its account to sign in (run it again later, after the change); on a terminal, standard error shows how many operations were sent so far and how many files, and bytes, were downloaded. Without it, runs until SIGINT or SIGTERM and stops cleanly, printing on standard error a summary line every 10 s in which something happened (--verbose: a line per event; --json: one JSON object per event, per line, on standard output).",
            examples: ["ferry run --once", "ferry run --once --json", "ferry run --verbose"]
        )
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Do what can be done now, then exit.")
    var once = false

    func run(in runtime: FerryRuntime) async throws {
        // A damaged store can still answer some queries; it must not be synced from.
        try await runtime.store.checkIntegrity()
        let engine = SyncEngine(runtime: runtime)
        let liveView = try LiveViewSettings(runtime.configuration).liveView(of: runtime)
        if once {
            let pass: @Sendable () async throws -> RunSummary = {
                try await SendProgress.whileRunning(runtime: runtime) { try await engine.runOnce() }
            }
            let summary: RunSummary
            if let liveView {
                summary = try await liveView.whileServing(logger: runtime.logger, pass)
            } else {
                summary = try await pass()
            }
            let status = try await QueueInspector(runtime: runtime).status()
            if global.json {
                try global.output.printJSON(RunReport(summary: summary, status: status))
            } else {
                print(RunReport.render(summary: summary, status: status))
            }
            if summary.failed { throw CommandFailure(.failure) }
            if RunReport.workIsHeld(status) { throw CommandFailure(.tryLater) }
            return
        }
        let printer = EventPrinter(
            events: runtime.events.subscribe(),
            style: global.json ? .json : global.verbose ? .everyEvent : .digest,
            clock: runtime.clock,
            backlog: { try? await RunDigest.Backlog(QueueInspector(runtime: runtime).status()) },
            banner: "ferry: syncing \(runtime.registry.names.joined(separator: ", ")); press Ctrl-C to stop",
            describeConflict: { report in runtime.registry.plugin(named: report.plugin)?.describe(report) }
        )
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: engine), .init(service: printer)] + (liveView?.services ?? []),
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: runtime.logger
            )
        )
        try await group.run()
        Output.warn("ferry: stopped; nothing in flight was lost")
    }
}

/// What `ferry run --once` reports.
struct RunReport: Encodable {
    let summary: Summary
    let status: QueueInspector.Status

    struct Summary: Encodable {
        let sent, retried, deadLettered, conflicts: Int
        let downloads: Downloads
        let pulls: [String: PullSummary.Counts]
        let pullFailures: [String: String]
    }

    /// Files downloaded in the pass.
    struct Downloads: Encodable {
        let files: Int
        let bytes: Int64
    }

    init(summary: RunSummary, status: QueueInspector.Status) {
        self.summary = Summary(
            sent: summary.sent,
            retried: summary.retried,
            deadLettered: summary.deadLettered,
            conflicts: summary.conflicts,
            downloads: Downloads(files: summary.downloads.files, bytes: summary.downloads.bytes),
            pulls: summary.pulls.mapValues(PullSummary.Counts.init),
            pullFailures: summary.pullFailures
        )
        self.status = status
    }

    /// Whether operations are left that wait for a login or for connectivity: a pass that
    /// could not send them did not finish its work (EX_TEMPFAIL, try again later).
    static func workIsHeld(_ status: QueueInspector.Status) -> Bool {
        status.plugins.contains { plugin in
            let unsent = plugin.pending + plugin.queued
            return (plugin.needsLogin && unsent > 0) || plugin.waitingForConnectivity > 0
                || plugin.waitingForUnmetered > 0 || plugin.waitingForConfiguration > 0 || plugin.heldForAccount > 0
                || (!status.connectivity.reachable && plugin.pending > 0)
        }
    }

    static func render(summary: RunSummary, status: QueueInspector.Status) -> String {
        var lines = [
            "sent \(summary.sent), retrying \(summary.retried), dead letters \(summary.deadLettered), conflicts \(summary.conflicts)",
            "connectivity: \(status.connectivity.summary)",
        ]
        if summary.downloads.files > 0 { lines.insert(summary.downloads.description, at: 1) }
        for (plugin, pull) in summary.pulls.sorted(by: { $0.key < $1.key }) where pull != PullSummary() {
            lines.append(
                "\(plugin): pulled \(pull.upserted) changed, \(pull.deleted) deleted, \(pull.rebased) kept with pending writes"
            )
        }
        for (plugin, reason) in summary.pullFailures.sorted(by: { $0.key < $1.key }) {
            lines.append("\(plugin): pull failed: \(reason)")
        }
        let waiting = status.plugins.filter { $0.pending + $0.queued + $0.dead + $0.conflicts > 0 || $0.needsLogin }
        for plugin in waiting {
            lines.append("\(plugin.plugin): \(StatusCommand.describe(plugin))")
        }
        if waiting.isEmpty { lines.append("nothing waiting") }
        return lines.joined(separator: "\n")
    }
}

extension PullSummary {
    /// The counts as JSON.
    struct Counts: Encodable {
        let upserted, deleted, rebased: Int
        init(_ summary: PullSummary) {
            upserted = summary.upserted
            deleted = summary.deleted
            rebased = summary.rebased
        }
    }
}
