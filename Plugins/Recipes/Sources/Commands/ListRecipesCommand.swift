import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry recipes list [--saved] [--refresh] [--json]`.
struct ListRecipesCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the recipes in the local cache, with their saved state and unsent work.",
        discussion:
            "Answers from the local cache, online or offline, and says when it was last refreshed. --refresh pulls from the server first when it can be reached."
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Only saved recipes.")
    var saved = false

    @Flag(help: "Pull from the server first; offline, the cache is shown with a note.")
    var refresh = false

    func run(in runtime: FerryRuntime) async throws {
        let book = try RecipeBook(runtime: runtime)
        var listing = try await book.list(savedOnly: saved)
        if refresh {
            let read = try await book.read(savedOnly: saved, policy: .cacheThenNetwork)
            if let offline = read?.offline {
                Output.warn("recipes: offline (\(offline)); showing the local cache")
            } else if read == nil {
                Output.warn("recipes: could not refresh (no connection); showing the local cache")
            }
            if let value = read?.value { listing = value }
        }
        let output = Output(json: global.json)
        if global.json {
            try output.printJSON(listing)
            return
        }
        if listing.recipes.isEmpty {
            print(
                saved
                    ? "no saved recipes here; save one with `ferry recipes save ID`"
                    : "no recipes cached yet; run `ferry run --once` (or `ferry recipes list --refresh`) while online"
            )
        } else {
            output.table(
                ["ID", "TITLE", "SAVED", "SYNC"],
                listing.recipes.map { item in
                    [item.id, item.title ?? "(not fetched yet)", item.saved ? "yes" : "", Self.sync(item)]
                }
            )
        }
        let now = runtime.clock.now()
        let count = listing.recipes.count
        let last =
            listing.lastSyncedAt.map { "last synced \(Output.relative($0, now: now))" }
            ?? "never synced with the server"
        print("\(count) recipe\(count == 1 ? "" : "s") from the local cache; \(last)")
    }

    static func sync(_ item: RecipeListing.Item) -> String {
        var parts: [String] = []
        if !item.pending.isEmpty { parts.append("waiting: " + item.pending.joined(separator: ", ")) }
        if !item.failed.isEmpty {
            parts.append("failed: " + item.failed.joined(separator: ", ") + " (see ferry queue)")
        }
        if parts.isEmpty { return item.onServer ? "synced" : "local only" }
        return parts.joined(separator: "; ")
    }
}
