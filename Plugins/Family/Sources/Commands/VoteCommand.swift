import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry family vote ROUND TMDB_ID up|down`.
struct VoteCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "vote",
        abstract: "Vote on a movie of a round; a new vote replaces your previous one on that movie."
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The round id.") var round: String
    @Argument(help: "The movie's TMDB id.") var tmdbID: Int
    @Argument(help: "up or down.") var value: VoteValue

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
