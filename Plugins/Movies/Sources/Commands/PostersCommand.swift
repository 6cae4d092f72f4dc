import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry movies posters fetch|usage|clear`.
struct PostersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "posters",
        abstract: "The poster cache: fetch posters for offline use, show its usage, clear it.",
        subcommands: [PostersFetchCommand.self, PostersUsageCommand.self, PostersClearCommand.self]
    )
}

/// `ferry movies posters fetch [ID...]`.
struct PostersFetchCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download the posters of your movies (or of the given ids) that are not cached yet.",
        discussion: Examples.discussion(
            "Exits 1 when a poster failed, 69 when offline. `ferry run` caches posters after each pull too.",
            examples: ["ferry movies posters fetch", "ferry movies posters fetch m_demo_heat m_demo_dune"]
        )
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("Movie ids; all movies when left out.", valueName: "id"))
    var ids: [String] = []

    struct Report: Encodable {
        var downloaded = 0
        var cached = 0
        var failed: [String: String] = [:]
        var offline: String?
        /// Posters evicted (least recently used) to make room within `max_size`.
        var evicted: [String] = []
    }

    func run(in runtime: FerryRuntime) async throws {
        let library = try MoviesLibrary(runtime: runtime)
        let posters = library.posters()
        var movies = try await library.movies()
        if !ids.isEmpty {
            let wanted = Set(ids)
            let unknown = wanted.subtracting(movies.map(\.id))
            guard unknown.isEmpty else {
                throw FerryError(
                    .notFound,
                    "no movie \(unknown.sorted().joined(separator: ", ")) in the local list; `ferry movies list` shows the ids"
                )
            }
            movies = movies.filter { wanted.contains($0.id) }
        }
        try await posters.files.expire()
        let before = Set(try await posters.files.entries().map(\.key))
        var report = Report()
        for movie in movies where movie.posterPath?.isEmpty == false {
            do {
                guard let file = try await posters.fetch(movie) else { continue }
                if file.downloaded { report.downloaded += 1 } else { report.cached += 1 }
            } catch {
                let reason = (error as? FerryError)?.message ?? "\(error)"
                // Connectivity decides, not this command: after a download that got no
                // answer the file cache has it look again, and offline the rest would fail alike.
                guard await runtime.connectivity.current().reachable else {
                    if !global.json { Output.warn("offline: \(reason); cached posters stay available") }
                    report.offline = reason
                    break
                }
                report.failed[movie.id] = reason
            }
        }
        report.evicted = before.subtracting(try await posters.files.entries().map(\.key)).sorted()
        if global.json {
            try global.output.printJSON(report)
        } else {
            try await printReport(report, posters: posters)
        }
        if report.offline != nil { throw CommandFailure(.unavailable) }
        if !report.failed.isEmpty { throw CommandFailure(.failure) }
    }

    private func printReport(_ report: Report, posters: PosterCache) async throws {
        let usage = try await posters.files.usage()
        print(
            "posters: \(report.downloaded) downloaded, \(report.cached) already cached\(report.failed.isEmpty ? "" : ", \(report.failed.count) failed")"
        )
        for (id, reason) in report.failed.sorted(by: { $0.key < $1.key }) { print("  \(id): \(reason)") }
        if !report.evicted.isEmpty {
            print("evicted \(report.evicted.count) least recently used posters to stay within max_size")
        }
        print(
            "cache: \(usage.files) files, \(ByteCount(usage.bytes)) of \(usage.maxBytes.map { ByteCount($0).description } ?? "no limit")"
        )
    }
}

/// `ferry movies posters usage`.
struct PostersUsageCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage",
        abstract: "Show how much room cached posters take.",
        discussion: Examples.discussion(examples: ["ferry movies posters usage", "ferry movies posters usage --json"])
    )

    @OptionGroup var global: GlobalOptions

    func run(in runtime: FerryRuntime) async throws {
        let posters = try MoviesLibrary(runtime: runtime).posters()
        try await posters.files.expire()
        let usage = try await posters.files.usage()
        if global.json { return try global.output.printJSON(usage) }
        print(
            "posters: \(usage.files) files, \(ByteCount(usage.bytes)) of \(usage.maxBytes.map { ByteCount($0).description } ?? "no limit")"
        )
        if let age = usage.maxAgeSeconds {
            print("kept for \(Int(age / 86_400)) days after download; least recently used go first when full")
        }
        if usage.partialBytes > 0 {
            print("interrupted downloads: \(ByteCount(usage.partialBytes)) (resumed on the next fetch)")
        }
        print("folder: \(posters.files.root.path)")
    }
}

/// `ferry movies posters clear`.
struct PostersClearCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Delete every cached poster.",
        discussion: Examples.discussion(examples: ["ferry movies posters clear", "ferry movies posters clear --yes"])
    )

    @OptionGroup var global: GlobalOptions
    @Flag(name: .long, help: "Do not ask for confirmation.")
    var yes = false

    func run(in runtime: FerryRuntime) async throws {
        let posters = try MoviesLibrary(runtime: runtime).posters()
        let usage = try await posters.files.usage()
        guard usage.files + (usage.partialBytes > 0 ? 1 : 0) > 0 else {
            if global.json { return try global.output.printJSON(RemovalReport()) }
            print("The poster cache is already empty.")
            return
        }
        try Prompt.confirmOrStop(
            "Delete \(usage.files) cached posters (\(ByteCount(usage.bytes)))?",
            assumeYes: yes,
            unchanged: "nothing was deleted"
        )
        let removed = try await posters.files.purge()
        if global.json { return try global.output.printJSON(removed) }
        print("Deleted \(removed.keys.count) posters (\(ByteCount(removed.bytes))).")
    }
}
