import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry recipes list [--saved] [--refresh] [--watch] [--json]`.
struct ListRecipesCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the recipes in the local cache, with their saved state and unsent work.",
        discussion: Examples.discussion(
            "Answers from the local cache, online or offline, and says when it was last refreshed. --refresh pulls from the server first when it can be reached. --watch keeps the list on screen and draws it again whenever it changes: a save here or in another terminal, a sync by `ferry run`.",
            examples: ["ferry recipes list", "ferry recipes list --saved --refresh", "ferry recipes list --watch"]
        )
    )

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Only saved recipes.")
    var saved = false

    @Flag(help: "Pull from the server first; offline, the cache is shown with a note.")
    var refresh = false

    @Flag(help: "Keep watching: draw the list again whenever it changes, until Ctrl-C (with --json, one object per line).")
    var watch = false

    func run(in runtime: FerryRuntime) async throws {
        let book = try RecipeBook(runtime: runtime)
        if watch {
            let screen = WatchScreen(json: global.json)
            for try await answer in book.watch(savedOnly: saved, policy: refresh ? .cacheThenNetwork : .cacheOnly) {
                let now = runtime.clock.now()
                let text = table(answer.value) + footer(answer.value, now: now) + "\n"
                try screen.show(text, json: answer.value, at: now)
            }
            return
        }
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
        if global.json {
            try Output(json: true).printJSON(listing)
            return
        }
        print(table(listing), terminator: "")
        // A note for people, like `movies list`'s: standard output stays the table.
        Output.warn(footer(listing, now: runtime.clock.now()))
    }

    /// The list as people read it: a table, or why it is empty.
    private func table(_ listing: RecipeListing) -> String {
        if listing.recipes.isEmpty {
            return
                saved
                ? "no saved recipes here; save one with `ferry recipes save ID`\n"
                : "no recipes cached yet; run `ferry run --once` (or `ferry recipes list --refresh`) while online\n"
        }
        return Output.render(
            ["ID", "TITLE", "SAVED", "SYNC"],
            listing.recipes.map { item in
                [item.id, item.title ?? "(not fetched yet)", item.saved ? "yes" : "", Self.sync(item)]
            }
        )
    }

    /// How many recipes are listed and when they were last synced:
    /// `3 recipes from the local cache; last synced 40 s ago`.
    private func footer(_ listing: RecipeListing, now: Date) -> String {
        let count = listing.recipes.count
        let last =
            listing.lastSyncedAt.map { "last synced \(Output.relative($0, now: now))" }
            ?? "never synced with the server"
        return "\(count) recipe\(count == 1 ? "" : "s") from the local cache; \(last)"
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
