import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry family suggest ROUND TMDB_ID`.
struct SuggestCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Suggest a movie for a round.",
        discussion: Examples.discussion(examples: ["ferry family suggest r_demo_round 949"])
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The round id.", valueName: "round-id")) var round: String
    @Argument(help: ArgumentHelp("The movie's TMDB id.", valueName: "tmdb-id")) var tmdbID: Int

    func run(in runtime: FerryRuntime) async throws {
        let result = try await FamilyClient(runtime: runtime).suggest(round: round, tmdbID: tmdbID)
        if global.json { return try Output(json: true).printJSON(result) }
        if result.queued {
            return print("Suggesting movie \(tmdbID) for round \(round) is queued; `ferry run` sends it.")
        }
        print("Suggested \(result.value.map { "\($0.title) (\($0.tmdbID))" } ?? "movie \(tmdbID)") for round \(round).")
    }
}
