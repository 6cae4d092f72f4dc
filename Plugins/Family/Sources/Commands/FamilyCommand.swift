import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry family`: movie-night groups, rounds, votes and the pick.
public struct FamilyCommand: AsyncParsableCommand {
    /// The `family` command group and its subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "family",
        abstract: "Family movie night: groups, rounds, votes and the pick (online-only unless queued in config.yaml).",
        subcommands: [
            GroupsCommand.self, GroupCommand.self, MemberCommand.self, RoundCommand.self, SuggestCommand.self,
            VoteCommand.self, PickCommand.self,
        ]
    )

    /// Creates the command (ArgumentParser calls it).
    public init() {}
}
