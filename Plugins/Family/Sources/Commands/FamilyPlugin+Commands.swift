import ArgumentParser
import SyncKernelCLI

extension FamilyPlugin: PluginCommands {
    public static let commands: [any ParsableCommand.Type] = [FamilyCommand.self]
}
