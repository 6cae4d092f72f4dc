import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry auth act-as`: attribute what you do to a managed member, or to yourself again.
struct ActAsCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "act-as",
        abstract: "Act as a managed member (sent as X-Acting-As-Member), or as yourself with --self.",
        discussion: Examples.discussion(
            "The member is checked against the cached family groups (fetched again once when online): you may act as yourself or as a managed member you manage. Offline with nothing cached it cannot be checked; the server checks each request.",
            examples: ["ferry auth act-as mem_kid", "ferry auth act-as --self"]
        )
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The managed member's id.", valueName: "member-id")) var member: String?
    @Flag(name: .customLong("self"), help: "Act as yourself again.") var asSelf = false

    /// What `--json` prints: the member acted as (null: yourself), their name when known,
    /// and whether the member could be checked here.
    struct Acting: Encodable {
        let actingAs: String?
        let name: String?
        let checked: Bool
    }

    func validate() throws {
        if member != nil && asSelf { throw ValidationError("give a member id or --self, not both") }
        if member == nil && !asSelf { throw ValidationError("give a member id, or --self") }
    }

    func run(in runtime: FerryRuntime) async throws {
        let auth = try runtime.plugin(AuthPlugin.self)
        guard let member, !asSelf else {
            let session = try await auth.act(as: nil)
            if global.json { return try global.output.printJSON(Acting(actingAs: nil, name: session.user.username, checked: true)) }
            return print("acting as yourself (\(session.user.username))")
        }
        let checks = await runtime.checkActingAs(member)
        for case .refused(let reason) in checks { throw FerryError(.usage, reason) }
        _ = try await auth.act(as: member)
        let name = checks.lazy.compactMap { check -> String? in
            if case .allowed(let name) = check { return name }
            return nil
        }.first
        if global.json { return try global.output.printJSON(Acting(actingAs: member, name: name, checked: name != nil)) }
        if let name { return print("acting as \(name) (\(member))") }
        print("acting as \(member)")
        let unchecked = checks.lazy.compactMap { check -> String? in
            if case .unchecked(let reason) = check { return reason }
            return nil
        }.first
        Output.warn("not checked: \(unchecked ?? "no enabled plugin knows members"); the server checks each request")
    }
}
