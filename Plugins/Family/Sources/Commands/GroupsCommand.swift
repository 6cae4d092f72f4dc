import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry family groups`: the user's groups.
struct GroupsCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(commandName: "groups", abstract: "List your family groups.")
    @OptionGroup var global: GlobalOptions

    func run(in runtime: FerryRuntime) async throws {
        let fetched = try await FamilyClient(runtime: runtime).groups()
        if global.json { return try Output(json: true).printJSON(fetched) }
        FamilyPrinter.cacheNote(fetched, now: runtime.clock.now())
        if fetched.value.isEmpty {
            return print("You are in no group yet; create one with `ferry family group create NAME`.")
        }
        Output(json: false).table(
            ["ID", "NAME", "CREATOR"],
            fetched.value.map { [$0.id, $0.name, $0.creatorUserID ?? "-"] }
        )
    }
}
