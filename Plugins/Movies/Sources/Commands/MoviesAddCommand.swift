import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry movies add`: by TMDB id (online), or by title (offline too, matched later).
struct MoviesAddCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a movie by TMDB id (needs a connection) or by title (works offline).",
        discussion: Examples.discussion(
            """
            --tmdb N adds the movie to the server now. --title "Heat" [--year 1995] stores it at once as a \
            pending movie; when online, `ferry run` matches it on TMDB and adds it. Pending movies with no \
            single best match are listed by `ferry movies pending` and settled with `ferry movies resolve`.
            """,
            examples: [
                "ferry movies add --tmdb 603 --recommender Sam", "ferry movies add --title Solaris --year 1972",
            ]
        )
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("The movie's TMDB id (online).", valueName: "tmdb-id"))
    var tmdb: Int?
    @Option(help: ArgumentHelp("The movie's title (works offline).", valueName: "title"))
    var title: String?
    @Option(help: ArgumentHelp("The release year, to tell remakes apart (with --title).", valueName: "year"))
    var year: Int?
    @Option(help: ArgumentHelp("Who recommended it.", valueName: "name"))
    var recommender: String?

    /// What `--json` prints: the movie added now, or the pending movie stored to be
    /// matched later, or the TMDB id queued to be added by `ferry run`.
    struct Added: Encodable {
        let movie: Movie?
        let pending: PendingMovie?
        let queuedTmdbId: Int?
    }

    func run(in runtime: FerryRuntime) async throws {
        let library = try MoviesLibrary(runtime: runtime)
        switch (tmdb, title) {
        case (let tmdb?, nil):
            if year != nil { throw FerryError(.usage, "--year goes with --title; a TMDB id names one movie already") }
            let movie: Movie?
            do {
                movie = try await library.add(tmdbID: tmdb, recommender: recommender)
            } catch let error as FerryError where error.code == .requiresConnection {
                throw FerryError(
                    .requiresConnection,
                    "adding by TMDB id needs a connection and there is none; nothing was changed. Add it by title instead, which works offline: ferry movies add --title \"TITLE\" --year YYYY",
                    underlying: error
                )
            }
            if global.json { return try global.output.printJSON(Added(movie: movie, pending: nil, queuedTmdbId: movie == nil ? tmdb : nil)) }
            if let movie {
                print("Added \(movie.label) as \(movie.id).")
            } else {
                print("Queued TMDB \(tmdb); it is added when `ferry run` is online.")
            }
        case (nil, let title?):
            let pending = try await library.add(title: title, year: year, recommender: recommender)
            if global.json { return try global.output.printJSON(Added(movie: nil, pending: pending, queuedTmdbId: nil)) }
            print(
                "Added \"\(pending.title)\"\(year.map { " (\($0))" } ?? "") as \(pending.id), pending its TMDB match."
            )
            print("It is matched and added to the server when `ferry run` is online; `ferry movies pending` shows it.")
        case (nil, nil):
            throw FerryError(.usage, "give --tmdb N or --title \"Title\" (with --year YYYY when there are remakes)")
        case (_?, _?):
            throw FerryError(.usage, "give either --tmdb or --title, not both")
        }
    }
}
