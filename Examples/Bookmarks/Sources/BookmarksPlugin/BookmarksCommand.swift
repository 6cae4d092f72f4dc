import ArgumentParser
import SyncKernel
import SyncKernelCLI

extension BookmarksPlugin: PluginCommands {
    public static let commands: [any ParsableCommand.Type] = [BookmarksCommand.self]
}

/// `ferry bookmarks add|list|remove`.
struct BookmarksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmarks",
        abstract: "Bookmarks: kept here at once, synced by `ferry run`.",
        subcommands: [Add.self, List.self, Remove.self]
    )

    struct Add: RuntimeCommand {
        static let configuration = CommandConfiguration(abstract: "Bookmark a web address.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The address, such as https://swift.org.") var url: String
        @Option(help: "The title (default: the host name).") var title: String?

        func run(in runtime: FerryRuntime) async throws {
            let bookmark = try await BookmarksPlugin.add(try Bookmark(url: url, title: title), in: runtime)
            print("bookmarked \(bookmark.url) as \(bookmark.id) (synced by `ferry run`)")
        }
    }

    struct List: RuntimeCommand {
        static let configuration = CommandConfiguration(abstract: "List the bookmarks kept here.")
        @OptionGroup var global: GlobalOptions

        func run(in runtime: FerryRuntime) async throws {
            let bookmarks = try await runtime.store.read { db in try Bookmark.all(in: db) }
            if global.json { return try Output(json: true).printJSON(bookmarks) }
            if bookmarks.isEmpty { return print("no bookmarks; add one with `ferry bookmarks add URL`") }
            Output(json: false).table(["ID", "TITLE", "URL"], bookmarks.map { [$0.id, $0.title, $0.url] })
        }
    }

    struct Remove: RuntimeCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a bookmark here and, by `ferry run`, on the server.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The bookmark's id, from `ferry bookmarks list`.") var id: String

        func run(in runtime: FerryRuntime) async throws {
            try await BookmarksPlugin.remove(id, in: runtime)
            print("removed \(id) (the server hears of it at the next `ferry run`)")
        }
    }
}
