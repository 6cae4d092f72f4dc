import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry status`: per plugin, what is waiting and why.
struct StatusCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show connectivity and, per plugin, what is pending, waiting, dead or in conflict.",
        discussion: Examples.discussion(examples: ["ferry status", "ferry status --json"])
    )

    @OptionGroup var global: GlobalOptions

    /// Asks the running runner when its live view answers (`status.listen`): its
    /// connectivity is the one it works with. Otherwise reads the store.
    func run(in runtime: FerryRuntime) async throws {
        let status: QueueInspector.Status
        if let live = await LiveStatusClient.status(try LiveViewSettings(runtime.configuration)) {
            status = live
        } else {
            status = try await QueueInspector(runtime: runtime).status()
        }
        if global.json { return try Output(json: true).printJSON(status) }
        print("connectivity: \(status.connectivity.summary)")
        let now = runtime.clock.now()
        Output(json: false).table(
            ["PLUGIN", "PENDING", "DEAD", "CONFLICTS", "LAST SYNC", "STATE"],
            status.plugins.map { plugin in
                [
                    plugin.plugin, "\(plugin.pending + plugin.queued + plugin.inFlight)", "\(plugin.dead)",
                    "\(plugin.conflicts)",
                    plugin.lastSync.map { Output.relative($0, now: now) } ?? "never", Self.describe(plugin),
                ]
            }
        )
    }

    /// One phrase for a plugin's state.
    static func describe(_ plugin: QueueInspector.PluginStatus) -> String {
        var parts: [String] = []
        if plugin.needsLogin { parts.append("needs login") }
        if plugin.waitingForConnectivity > 0 { parts.append("\(plugin.waitingForConnectivity) waiting for the remote") }
        if plugin.waitingForConfiguration > 0 {
            parts.append("\(plugin.waitingForConfiguration) waiting for a configuration change: `ferry queue list`")
        }
        if plugin.waitingForUnmetered > 0 {
            parts.append("\(plugin.waitingForUnmetered) waiting for an unmetered network (Wi-Fi or wired)")
        }
        if plugin.heldForAccount > 0 {
            parts.append("\(plugin.heldForAccount) held for another account or made signed out: `ferry queue list`")
        }
        if plugin.backingOff > 0 { parts.append("\(plugin.backingOff) backing off") }
        if plugin.queued > 0 { parts.append("\(plugin.queued) behind others") }
        if plugin.dead > 0 { parts.append("\(plugin.dead) dead: `ferry queue list --state dead`") }
        if plugin.conflicts > 0 { parts.append("\(plugin.conflicts) conflicts: `ferry conflicts list`") }
        return parts.isEmpty
            ? (plugin.pending > 0 ? "\(plugin.pending) ready" : "in sync") : parts.joined(separator: ", ")
    }
}
