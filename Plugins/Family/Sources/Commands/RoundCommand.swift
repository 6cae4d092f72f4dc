import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry family round start|close|show`.
struct RoundCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "round",
        abstract: "Start, close or show a voting round.",
        subcommands: [Start.self, Close.self, Show.self]
    )

    struct Start: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start a voting round; a group has at most one active round.",
            discussion: Examples.discussion(examples: [
                "ferry family round start g_demo_family --name Friday", "ferry family round start --attendees mem_sam mem_kid",
            ])
        )
        @OptionGroup var global: GlobalOptions
        @Argument(
            help: ArgumentHelp(
                "The group (default: plugins.family.default_group, else your only group).",
                valueName: "group-id"
            )
        ) var group: String?
        @Option(help: ArgumentHelp("A name for the round, e.g. Friday.", valueName: "name")) var name: String?
        @Option(
            parsing: .upToNextOption,
            help: ArgumentHelp(
                "Who attends: member names or ids, space- or comma-separated (default: every member).",
                valueName: "member"
            )
        )
        var attendees: [String] = []

        func run(in runtime: FerryRuntime) async throws {
            let result = try await FamilyClient(runtime: runtime).startRound(
                group: group,
                name: name,
                attendees: attendees
            )
            if global.json { return try Output(json: true).printJSON(result) }
            let round = result.value
            print(
                result.queued
                    ? "Round \(round.label) in group \(round.groupID) is queued; `ferry run` starts it."
                    : "Started round \(round.label) in group \(round.groupID). Vote with `ferry family vote \(round.id) TMDB_ID up|down`."
            )
        }
    }

    struct Close: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract: "Close a round: no more suggestions or votes.",
            discussion: Examples.discussion(examples: ["ferry family round close r_demo_round"])
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The round id.", valueName: "round-id")) var round: String

        func run(in runtime: FerryRuntime) async throws {
            let result = try await FamilyClient(runtime: runtime).closeRound(round)
            if global.json { return try Output(json: true).printJSON(result) }
            if result.queued { return print("Closing round \(round) is queued; `ferry run` sends it.") }
            print("Round \(result.value?.label ?? round) is \(result.value?.status ?? "closed").")
        }
    }

    struct Show: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a round: suggestions, votes per movie (fetched fresh) and the pick.",
            discussion: Examples.discussion(examples: ["ferry family round show r_demo_round", "ferry family round show r_demo_round --json"])
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The round id.", valueName: "round-id")) var round: String

        func run(in runtime: FerryRuntime) async throws {
            let client = FamilyClient(runtime: runtime)
            let fetched = try await client.round(round)
            if global.json { return try Output(json: true).printJSON(fetched) }
            FamilyPrinter.cacheNote(fetched, now: runtime.clock.now())
            let named = fetched.value.memberIDs
            let members = await client.members(of: fetched.value.detail.round.groupID) {
                named.isSubset(of: Set($0.map(\.id)))
            }
            print(FamilyPrinter.round(fetched.value, members: members), terminator: "")
        }
    }
}
