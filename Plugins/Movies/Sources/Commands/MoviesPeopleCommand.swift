import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry movies people`: who recommended what, from the local list.
struct MoviesPeopleCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "List the people who recommended your movies (from the local list).",
        discussion: Examples.discussion(examples: ["ferry movies people", "ferry movies people --json"])
    )

    @OptionGroup var global: GlobalOptions

    func run(in runtime: FerryRuntime) async throws {
        let library = try MoviesLibrary(runtime: runtime)
        let people = try await library.people()
        if global.json { return try global.output.printJSON(["people": people]) }
        guard !people.isEmpty else {
            print("Nobody yet: movies added with --recommender NAME show up here.")
            return
        }
        let titles = Dictionary(try await library.movies().map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        global.output.table(
            ["ID", "NAME", "MOVIES", "TITLES"],
            people.map {
                [$0.id, $0.name, String($0.movieCount), $0.movieIds.compactMap { titles[$0] }.joined(separator: ", ")]
            }
        )
    }
}
