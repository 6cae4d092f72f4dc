import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry family vote ROUND TMDB_ID up|down`.
struct VoteCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "vote",
        abstract: "Vote on a movie of a round; a new vote replaces your previous one on that movie.",
        discussion: Examples.discussion(examples: ["ferry family vote r_demo_round 129 up", "ferry family vote r_demo_round 603 down"])
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The round id.", valueName: "round-id")) var round: String
    @Argument(help: ArgumentHelp("The movie's TMDB id.", valueName: "tmdb-id")) var tmdbID: Int
    @Argument(help: ArgumentHelp("Your vote.", valueName: "vote")) var value: VoteValue

    func run(in runtime: FerryRuntime) async throws {
        let result = try await FamilyClient(runtime: runtime).vote(round: round, tmdbID: tmdbID, value: value)
        if global.json { return try Output(json: true).printJSON(result) }
        let who = result.value.memberKey == FamilyClient.selfKey ? "" : " as member \(result.value.memberKey)"
        print(
            result.queued
                ? "Vote \(value.rawValue) on movie \(tmdbID) in round \(round)\(who) is queued; `ferry run` sends it."
                : "Voted \(value.rawValue) on movie \(tmdbID) in round \(round)\(who)."
        )
    }
}
