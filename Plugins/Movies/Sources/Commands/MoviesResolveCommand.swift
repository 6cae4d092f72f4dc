import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry movies resolve PENDING_ID --tmdb N`: settles a pending movie by hand.
struct MoviesResolveCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Choose the TMDB movie a pending movie is; it is added on the next sync.",
        discussion: Examples.discussion(examples: ["ferry movies resolve local-3f2a9c1e --tmdb 593"])
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The pending movie's local id (from `ferry movies pending`).", valueName: "local-id"))
    var id: String
    @Option(help: ArgumentHelp("The TMDB id to add it as.", valueName: "tmdb-id"))
    var tmdb: Int

    func run(in runtime: FerryRuntime) async throws {
        let pending = try await MoviesLibrary(runtime: runtime).resolve(id, tmdbID: tmdb)
        if global.json { return try Output(json: true).printJSON(pending) }
        let chosen =
            pending.candidates.first { $0.tmdbId == tmdb }.map { candidate in
                " (" + (candidate.year.map { "\(candidate.title), \($0)" } ?? candidate.title) + ")"
            } ?? ""
        print("\(id) will be added as TMDB \(tmdb)\(chosen) when `ferry run` is online; changes made to it follow it.")
    }
}
