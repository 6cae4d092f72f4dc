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
            abstract: "Show a group: members, managed members and the active round (cached when offline).",
            discussion: Examples.discussion(examples: ["ferry family group show g_demo_family"])
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The group id (see `ferry family groups`).", valueName: "group-id")) var id: String

        func run(in runtime: FerryRuntime) async throws {
            let fetched = try await FamilyClient(runtime: runtime).group(id)
            if global.json {
                let view = Fetched(
                    value: GroupView(fetched.value),
                    fromCache: fetched.fromCache,
                    fetchedAt: fetched.fetchedAt,
                    note: fetched.note
                )
                return try Output(json: true).printJSON(view)
            }
            FamilyPrinter.cacheNote(fetched, now: runtime.clock.now())
            print(FamilyPrinter.group(fetched.value), terminator: "")
        }
    }

    struct Create: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a group; you become its creator.",
            discussion: Examples.discussion(examples: ["ferry family group create \"Movie night\""])
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The group's name.", valueName: "name")) var name: String

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
