import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry movies remove ID`: removed locally at once, the removal queued.
struct MoviesRemoveCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a movie from your list (works offline).",
        discussion: Examples.discussion(examples: ["ferry movies remove m_demo_arrival", "ferry movies remove m_demo_arrival --yes"])
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The movie's id.", valueName: "id"))
    var id: String
    @Flag(name: .long, help: "Do not ask for confirmation.")
    var yes = false

    func run(in runtime: FerryRuntime) async throws {
        let library = try MoviesLibrary(runtime: runtime)
        guard let movie = try await library.movie(id) else {
            throw FerryError(.notFound, "no movie \(id) in the local list; `ferry movies list` shows the ids")
        }
        try Prompt.confirmOrStop("Remove \(movie.label) from your list?", assumeYes: yes, unchanged: "nothing was removed")
        try await library.remove(id)
        if global.json { return try Output(json: true).printJSON(["removed": movie.id]) }
        print(
            "Removed \(movie.label)\(PendingMovies.isLocal(movie.id) ? "" : "; the removal is queued and `ferry run` sends it")."
        )
    }
}
