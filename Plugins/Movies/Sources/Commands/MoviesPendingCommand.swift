import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry movies pending`: movies added offline, with why each is still pending.
struct MoviesPendingCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract: "List movies added offline that wait for their TMDB match, with candidates.",
        discussion: Examples.discussion(examples: ["ferry movies pending", "ferry movies pending --json"])
    )

    @OptionGroup var global: GlobalOptions

    func run(in runtime: FerryRuntime) async throws {
        let pending = try await MoviesLibrary(runtime: runtime).pending()
        if global.json { return try Output(json: true).printJSON(["pending": pending]) }
        guard !pending.isEmpty else {
            print("No pending movies.")
            return
        }
        for movie in pending {
            let title = movie.year.map { "\(movie.title) (\($0))" } ?? movie.title
            print("\(movie.id)  \"\(title)\"\(movie.recommender.map { " from \($0)" } ?? "")")
            switch movie.state {
            case .waiting:
                print(
                    "  waiting: \(movie.tmdbId.map { "will be added as TMDB \($0)" } ?? "will be matched on TMDB") when `ferry run` is online"
                )
                if let reason = movie.reason { print("  last try: \(reason)") }
            case .failed:
                print("  failed: \(movie.reason ?? "its add failed")")
                print("  `ferry queue list --plugin movies --state dead` shows its operation: `ferry queue retry ID` tries again,")
                print("  `ferry queue discard ID` drops it and the movie")
            case .needsChoice:
                print("  needs a choice: \(movie.reason ?? "no single best match")")
                for candidate in movie.candidates {
                    print(
                        "    tmdb \(String(candidate.tmdbId).padding(toLength: 8, withPad: " ", startingAt: 0)) \(candidate.year.map { "\(candidate.title) (\($0))" } ?? candidate.title)"
                    )
                }
                if let first = movie.candidates.first {
                    print("  settle it with: ferry movies resolve \(movie.id) --tmdb \(first.tmdbId)")
                } else {
                    print("  no candidates: find its TMDB id (the number in its themoviedb.org address) and run")
                    print(
                        "  ferry movies resolve \(movie.id) --tmdb N, or drop it with ferry movies remove \(movie.id)"
                    )
                }
            }
        }
    }
}
