import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry auth whoami`: the signed-in user, from the cache (no network).
struct WhoamiCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Print the signed-in user.",
        discussion: Examples.discussion(examples: ["ferry auth whoami", "ferry auth whoami --json"])
    )

    @OptionGroup var global: GlobalOptions

    func run(in runtime: FerryRuntime) async throws {
        let auth = try runtime.plugin(AuthPlugin.self)
        guard let session = try await auth.status(), session.isActive else {
            throw FerryError(.needsLogin, "nobody is signed in; run `ferry auth login`")
        }
        if global.json { return try Output(json: true).printJSON(SessionView(session, now: runtime.clock.now())) }
        print(session.user.username + (session.actingAs.map { " (acting as \($0))" } ?? ""))
    }
}
