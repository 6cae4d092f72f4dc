import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry movies ...`: the movie list, read locally first, changed offline, matched on TMDB.
public struct MoviesCommand: ParsableCommand {
    /// The group's name, help and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "movies",
        abstract: "Your movie list: local first, works offline, matched on TMDB.",
        discussion: """
            Reads answer from the local cache at once and then refresh from the server (cache_policy). \
            Changes are made locally at once and queued; `ferry run` (or `ferry run --once`) sends them.
            """,
        subcommands: [
            MoviesListCommand.self, MoviesShowCommand.self, MoviesAddCommand.self, MoviesUpdateCommand.self,
            MoviesRemoveCommand.self, MoviesPendingCommand.self, MoviesResolveCommand.self, MoviesPeopleCommand.self,
            PostersCommand.self,
        ]
    )

    /// Creates the command (ArgumentParser needs it).
    public init() {}
}
