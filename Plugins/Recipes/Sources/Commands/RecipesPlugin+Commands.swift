import ArgumentParser
import SyncKernelCLI

extension RecipesPlugin: PluginCommands {
    public static let commands: [any ParsableCommand.Type] = [RecipesCommand.self]
}
