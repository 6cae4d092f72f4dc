import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry movies list`: the cached list at once, then what the refresh changed.
struct MoviesListCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List your movies from the local cache, then refresh from the server.",
        discussion: Examples.discussion(
            "Offline, the cached list is shown and the command says so; it never fails because the network is down. --watch keeps the list on screen and draws it again whenever it changes: a change here or in another terminal, a sync by `ferry run`.",
            examples: [
                "ferry movies list", "ferry movies list --status want_to_watch --policy cache_only",
                "ferry movies list --watch --json",
            ]
        )
    )

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Only movies with this status.", valueName: "status"))
    var status: MovieStatusArgument?
    @Option(help: ArgumentHelp("How to read (default: cache_policy in config.yaml).", valueName: "policy"))
    var policy: CachePolicy?
    @Flag(help: "Keep watching: draw the list again whenever it changes, until Ctrl-C (with --json, one object per line).")
    var watch = false

    /// What `--json` prints.
    struct Listing: Encodable {
        var movies: [Movie]
        var origin: CacheOrigin
        var hasPendingWrites: Bool
        var offline: String?
    }

    func run(in runtime: FerryRuntime) async throws {
        let status = self.status?.rawValue
        let library = try MoviesLibrary(runtime: runtime)
        if watch {
            let screen = WatchScreen(json: global.json)
            for try await answer in library.watch(status: status, policy: policy) {
                let listing = Listing(
                    movies: answer.value,
                    origin: answer.origin,
                    hasPendingWrites: answer.hasPendingWrites,
                    offline: answer.offline
                )
                try screen.show(Self.table(answer.value), json: listing, at: runtime.clock.now())
            }
            return
        }
        let json = global.json
        let shown = ShownList()
        let result = try await library.list(status: status, policy: policy) { answer in
            guard !json else { return }
            if let before = shown.value {
                let change = ListChange(before: before, after: answer.value)
                Output.warn(change.isEmpty ? "refreshed: up to date" : "refreshed: \(change.summary)")
                if !change.isEmpty { Self.printTable(answer.value) }
            } else {
                Self.printTable(answer.value)
            }
            shown.value = answer.value
        }
        if json {
            if let result {
                try Output(json: true).printJSON(
                    Listing(
                        movies: result.value,
                        origin: result.origin,
                        hasPendingWrites: result.hasPendingWrites,
                        offline: result.offline
                    )
                )
            } else {
                try Output(json: true).printJSON(
                    Listing(movies: [], origin: .cache, hasPendingWrites: false, offline: "nothing cached yet")
                )
            }
            return
        }
        guard let result else {
            print("Nothing cached yet and no connection: connect and run `ferry movies list` again.")
            return
        }
        if let offline = result.offline {
            Output.warn("offline: showing the cached list (\(offline))")
        }
    }

    static func printTable(_ movies: [Movie]) {
        print(table(movies), terminator: "")
    }

    static func table(_ movies: [Movie]) -> String {
        movies.isEmpty
            ? "No movies. Add one with `ferry movies add --title \"Heat\"`.\n"
            : Output.render(MovieFormat.header, movies.map(MovieFormat.row))
    }
}

extension CachePolicy: ExpressibleByArgument {}
