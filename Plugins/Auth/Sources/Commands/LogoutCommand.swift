import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry auth logout`.
struct LogoutCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Sign out. Queued work is kept and waits for the next login of the same user.",
        discussion: Examples.discussion(examples: ["ferry auth logout", "ferry auth logout --yes --json"])
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Do not ask for confirmation.") var yes = false

    /// What `--json` prints: `signed_out` is false when nobody was signed in.
    struct Report: Encodable {
        let signedOut: Bool
        /// Whether the server heard of it; offline, its session expires by itself.
        let serverNotified: Bool
        /// Queued operations that wait for the next login.
        let waitingForLogin: Int
    }

    func run(in runtime: FerryRuntime) async throws {
        let auth = try runtime.plugin(AuthPlugin.self)
        guard try await auth.status()?.isActive == true else {
            if global.json { return try global.output.printJSON(Report(signedOut: false, serverNotified: false, waitingForLogin: 0)) }
            print("nobody is signed in")
            return
        }
        let plugins = runtime.registry.plugins
        let atRisk = try await runtime.store.read { db in try plugins.compactMap { try $0.localDataAtRisk(in: db) } }
        let question =
            atRisk.isEmpty
            ? "Sign out?"
            : "Signing out will remove \(atRisk.joined(separator: ", ")). Are you sure?"
        try Prompt.confirmOrStop(question, assumeYes: yes, unchanged: "still signed in")
        let files = try await runtime.filesRemovedBySignOut()
        if files > 0 {
            try Prompt.confirmOrStop(
                "Signing out will remove \(files) files, are you sure?",
                assumeYes: yes,
                unchanged: "still signed in; no file was removed"
            )
        }
        // With no complete file there is nothing to ask about, but partial downloads and
        // what they were for still go: nothing of this account stays for the next one.
        try await runtime.removeFilesForSignOut()
        let told = try await auth.logout()
        try await runtime.holdAllForLogin(reason: "signed out")
        let pending = try await QueueInspector(runtime: runtime).status().plugins.reduce(0) {
            $0 + $1.pending + $1.queued
        }
        if global.json {
            return try global.output.printJSON(Report(signedOut: true, serverNotified: told, waitingForLogin: pending))
        }
        print("signed out\(told ? "" : " here (the server could not be reached; its session expires by itself)")")
        if pending > 0 { print("\(pending) queued operation(s) wait for the next login") }
    }
}
