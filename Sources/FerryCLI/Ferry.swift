import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry`: the root command.
public struct Ferry: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "ferry",
            abstract: "Local-first sync: local writes answer at once, a kernel carries them to the remote.",
            discussion: """
                Reads config.yaml (or --config <path>, or $FERRY_CONFIG). `ferry run --once` syncs every enabled plugin once.
                --json, --config <path> and --verbose go before or after the subcommand; --json prints one JSON object \
                (docs/json.md). \(HelpTopic.summary)
                """,
            version: "0.1.0",
            subcommands: [
                RunCommand.self, StatusCommand.self, QueueCommand.self, ConflictsCommand.self, NetworkCommand.self,
                ConfigCommand.self, ServeCommand.self, DomainCommand.self,
            ],
            groupedSubcommands: [
                CommandGroup(name: "Plugins", subcommands: Composition.plugins.flatMap { ($0 as? any PluginCommands.Type)?.commands ?? [] })
            ]
        )
    }

    /// The options every command takes, which may come before the subcommand
    /// (`LeadingOptions` moves them after it before parsing). Declared here too, so that
    /// `ferry --help` lists them and shell completion steps over them to the subcommand.
    @OptionGroup var global: GlobalOptions

    public init() {}
}
