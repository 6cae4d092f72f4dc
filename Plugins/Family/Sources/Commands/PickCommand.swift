import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry family pick ROUND TMDB_ID`: the round's movie, exactly once.
struct PickCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Pick the round's movie (group creator only; the first pick wins, a later one is told which won).",
        discussion: Examples.discussion(examples: ["ferry family pick r_demo_round 129"])
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The round id.", valueName: "round-id")) var round: String
    @Argument(help: ArgumentHelp("The movie's TMDB id.", valueName: "tmdb-id")) var tmdbID: Int

    func run(in runtime: FerryRuntime) async throws {
        let result = try await FamilyClient(runtime: runtime).pick(round: round, tmdbID: tmdbID)
        if global.json {
            try Output(json: true).printJSON(FamilyPrinter.PickView(result))
        } else {
            print(result.message)
        }
        if case .alreadyPicked(let winner, let yours) = result, winner.tmdbID != yours {
            throw FerryError(.conflict, "the pick went to \(winner.label), not movie \(yours)")
        }
    }
}
