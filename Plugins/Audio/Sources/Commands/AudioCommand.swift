import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry audio ...`: albums and collections for offline play.
public struct AudioCommand: ParsableCommand {
    /// The group's name, help and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "audio",
        abstract: "Albums and collections for offline play: Wi-Fi only, verified, within a storage cap.",
        discussion: """
            A download is queued at once; `ferry run` (or `ferry run --once`) fetches the files on an \
            unmetered connection (Wi-Fi or wired) and verifies each against its size and SHA-256.
            """,
        subcommands: [
            AlbumsCommand.self, CollectionsCommand.self, DownloadCommand.self, DownloadsCommand.self,
            RemoveCommand.self, PlayCommand.self, ResolveCommand.self,
        ]
    )

    /// Creates the command (ArgumentParser needs it).
    public init() {}
}

extension AudioPlugin: PluginCommands {
    /// `ferry audio`.
    public static let commands: [any ParsableCommand.Type] = [AudioCommand.self]
}

/// What an album or collection command works on.
enum AudioTarget: String, ExpressibleByArgument, CaseIterable {
    case album, collection, track
}

/// What `download` keeps: an album or a collection; a track comes with its album.
enum DownloadTarget: String, ExpressibleByArgument, CaseIterable {
    case album, collection
}
