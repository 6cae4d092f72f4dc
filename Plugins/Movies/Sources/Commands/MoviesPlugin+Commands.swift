import ArgumentParser
import SyncKernelCLI

extension MoviesPlugin: PluginCommands {
    public static let commands: [any ParsableCommand.Type] = [MoviesCommand.self]
}
