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
        try await Self.show(in: runtime, json: global.json)
    }

    /// Prints who recommended what; shared with `ferry people list`.
    static func show(in runtime: FerryRuntime, json: Bool) async throws {
        let library = try MoviesLibrary(runtime: runtime)
        let people = try await library.people()
        if json { return try Output(json: true).printJSON(["people": people]) }
        guard !people.isEmpty else {
            print("Nobody yet: movies added with --recommender NAME show up here.")
            return
        }
        let titles = Dictionary(try await library.movies().map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        Output(json: false).table(
            ["ID", "NAME", "MOVIES", "TITLES"],
            people.map {
                [$0.id, $0.name, String($0.movieCount), $0.movieIds.compactMap { titles[$0] }.joined(separator: ", ")]
            }
        )
    }
}

/// `ferry people`: the people behind the movie list, as a group of its own.
struct PeopleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "people",
        abstract: "The people who recommended movies (the movies plugin).",
        subcommands: [PeopleListCommand.self]
    )
}

/// `ferry people list`: the same as `ferry movies people`.
struct PeopleListCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the people who recommended your movies (from the local list).",
        discussion: Examples.discussion(examples: ["ferry people list", "ferry people list --json"])
    )

    @OptionGroup var global: GlobalOptions

    func run(in runtime: FerryRuntime) async throws {
        try await MoviesPeopleCommand.show(in: runtime, json: global.json)
    }
}
