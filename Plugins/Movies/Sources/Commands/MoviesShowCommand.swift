import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry movies show ID`: every field of one movie, from the cache.
struct MoviesShowCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract:
            "Show one movie: genres, director, overview, IMDb id, poster, status, rating, date watched, recommender.",
        discussion: Examples.discussion(examples: ["ferry movies show m_demo_heat", "ferry movies show m_demo_dune --json"])
    )

    @OptionGroup var global: GlobalOptions
    @Argument(
        help: ArgumentHelp(
            "The movie's id (from `ferry movies list`), or a local id of a movie added offline.",
            valueName: "id"
        )
    )
    var id: String

    func run(in runtime: FerryRuntime) async throws {
        let library = try MoviesLibrary(runtime: runtime)
        var movie = try await library.movie(id)
        if movie == nil, !(try await library.hasCache()), await runtime.connectivity.current().reachable {
            _ = try? await library.refresh()
            movie = try await library.movie(id)
        }
        guard let movie else {
            throw FerryError(.notFound, "no movie \(id) in the local list; `ferry movies list` shows the ids")
        }
        let posters = library.posters()
        var poster = try await posters.cached(movie)
        if poster == nil, movie.posterPath?.isEmpty == false {
            do {
                poster = try await posters.fetch(movie)
            } catch {
                let reason = (error as? FerryError)?.message ?? "\(error)"
                if !global.json { Output.warn("poster not cached: \(reason)") }
            }
        }
        if global.json {
            try Output(json: true).printJSON(movie)
            return
        }
        print(MovieFormat.details(movie, poster: poster?.url.path))
    }
}
