import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry auth act-as`: attribute what you do to a managed member, or to yourself again.
struct ActAsCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "act-as",
        abstract: "Act as a managed member (sent as X-Acting-As-Member), or as yourself with --self.",
        discussion: "No server round trip: the server checks the right on each request."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The managed member's id.") var member: String?
    @Flag(name: .customLong("self"), help: "Act as yourself again.") var asSelf = false

    func validate() throws {
        if member != nil && asSelf { throw ValidationError("give a member id or --self, not both") }
        if member == nil && !asSelf { throw ValidationError("give a member id, or --self") }
    }

    func run(in runtime: FerryRuntime) async throws {
        let session = try await runtime.plugin(AuthPlugin.self).act(as: asSelf ? nil : member)
        print(session.actingAs.map { "acting as \($0)" } ?? "acting as yourself (\(session.user.username))")
    }
}
