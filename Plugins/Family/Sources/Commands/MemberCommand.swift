import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry family member add NAME [--managed] [--group ID]`.
struct MemberCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "member",
        abstract: "Manage a group's members.",
        subcommands: [Add.self]
    )

    struct Add: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Add a managed member (a child without an account, --managed) or a user by username (creator only).",
            discussion: Examples.discussion(examples: [
                "ferry family member add Robin --managed", "ferry family member add sam --group g_demo_family",
            ])
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The managed member's display name, or the user's username.", valueName: "name"))
        var name: String
        @Flag(help: "Add a member without an account, managed by you.") var managed = false
        @Option(
            help: ArgumentHelp(
                "The group (default: plugins.family.default_group, else your only group).",
                valueName: "group-id"
            )
        ) var group: String?

        func run(in runtime: FerryRuntime) async throws {
            let result = try await FamilyClient(runtime: runtime).addMember(group: group, name: name, managed: managed)
            if global.json { return try Output(json: true).printJSON(result) }
            let member = result.value
            let what = member.managed ? "managed member" : "member"
            print(
                result.queued
                    ? "Adding \(what) \(member.displayName) to group \(member.groupID) is queued; `ferry run` sends it."
                    : "Added \(what) \(member.displayName) (\(member.id)) to group \(member.groupID)."
                        + (member.managed ? " Act as them with `ferry auth act-as \(member.id)`." : "")
            )
        }
    }
}
