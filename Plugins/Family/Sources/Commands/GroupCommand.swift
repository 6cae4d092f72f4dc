import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry family group show|create`.
struct GroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group",
        abstract: "Show or create a family group.",
        subcommands: [Show.self, Create.self]
    )

    struct Show: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a group: members, managed members and the active round (cached when offline)."
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The group id (see `ferry family groups`).") var id: String

        func run(in runtime: FerryRuntime) async throws {
            let fetched = try await FamilyClient(runtime: runtime).group(id)
            if global.json { return try Output(json: true).printJSON(fetched) }
            FamilyPrinter.cacheNote(fetched, now: runtime.clock.now())
            print(FamilyPrinter.group(fetched.value), terminator: "")
        }
    }

    struct Create: RuntimeCommand {
        static let configuration = CommandConfiguration(abstract: "Create a group; you become its creator.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The group's name.") var name: String

        func run(in runtime: FerryRuntime) async throws {
            let result = try await FamilyClient(runtime: runtime).createGroup(name: name)
            if global.json { return try Output(json: true).printJSON(result) }
            print(
                result.queued
                    ? "Group \"\(result.value.name)\" is queued as \(result.value.id); `ferry run` creates it."
                    : "Created group \"\(result.value.name)\" (\(result.value.id))."
            )
        }
    }
}
