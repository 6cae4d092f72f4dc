import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry family groups`: the user's groups.
struct GroupsCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "groups",
        abstract: "List your family groups.",
        discussion: Examples.discussion(examples: ["ferry family groups", "ferry family groups --json"])
    )
    @OptionGroup var global: GlobalOptions

    func run(in runtime: FerryRuntime) async throws {
        let fetched = try await FamilyClient(runtime: runtime).groups()
        if global.json { return try Output(json: true).printJSON(fetched) }
        FamilyPrinter.cacheNote(fetched, now: runtime.clock.now())
        if fetched.value.isEmpty {
            return print("You are in no group yet; create one with `ferry family group create NAME`.")
        }
        let client = FamilyClient(runtime: runtime)
        var rows: [[String]] = []
        for group in fetched.value {
            rows.append([group.id, group.name, await Self.creator(of: group, client: client)])
        }
        Output(json: false).table(["ID", "NAME", "CREATOR"], rows)
    }

    /// The creator's name, from the group's members (fetched once when not cached); the
    /// account id when no member names it.
    static func creator(of group: FamilyGroup, client: FamilyClient) async -> String {
        guard let creator = group.creatorUserID else { return "-" }
        let members = await client.members(of: group.id) { $0.contains { $0.userID == creator } }
        return members.first { $0.userID == creator }?.displayName ?? creator
    }
}
