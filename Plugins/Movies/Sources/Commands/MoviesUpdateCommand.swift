import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry movies update ID`: a local change at once, queued for the server.
struct MoviesUpdateCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change a movie's status, rating, date watched or recommender (works offline).",
        discussion: Examples.discussion(
            "The change is made locally at once and queued; several changes before a sync go out as one.",
            examples: [
                "ferry movies update m_demo_heat --status watched --rating 8",
                "ferry movies update m_demo_heat --watched-on 2024-06-01",
                "ferry movies update m_demo_dune --clear-rating",
            ]
        )
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The movie's id (a local id of a movie added offline works too).", valueName: "id"))
    var id: String
    @Option(help: ArgumentHelp("The new status.", valueName: "status"))
    var status: MovieStatusArgument?
    @Option(help: ArgumentHelp("Your rating, 1 to 10.", valueName: "rating"))
    var rating: Int?
    @Option(name: .customLong("watched-on"), help: ArgumentHelp("The date you watched it.", valueName: "yyyy-mm-dd"))
    var watchedOn: String?
    @Option(help: ArgumentHelp("Who recommended it.", valueName: "name"))
    var recommender: String?
    @Flag(name: .customLong("clear-rating"), help: "Remove your rating.")
    var clearRating = false
    @Flag(name: .customLong("clear-watched-on"), help: "Remove the date watched.")
    var clearWatchedOn = false
    @Flag(name: .customLong("clear-recommender"), help: "Remove the recommender.")
    var clearRecommender = false

    /// What `--json` prints: the movie as it now is locally, and what the queue did with
    /// the change (`queued`, `coalesced` or `cancelled`).
    struct Updated: Encodable {
        let movie: Movie?
        let result: String
    }

    func run(in runtime: FerryRuntime) async throws {
        let library = try MoviesLibrary(runtime: runtime)
        let result = try await library.update(
            id,
            MovieChanges(
                status: status?.rawValue,
                rating: rating,
                watchedOn: watchedOn,
                recommender: recommender,
                clearRating: clearRating,
                clearWatchedOn: clearWatchedOn,
                clearRecommender: clearRecommender
            )
        )
        let movie = try await library.movie(id)
        let (word, how): (String, String)
        switch result {
        case .coalesced: (word, how) = ("coalesced", "merged with the change already queued")
        case .inserted: (word, how) = ("queued", "queued")
        case .cancelled: (word, how) = ("cancelled", "nothing left to send")
        }
        if global.json { return try global.output.printJSON(Updated(movie: movie, result: word)) }
        print("Updated \(movie?.label ?? id) (\(how)); `ferry run` sends it.")
    }
}
