import ArgumentParser
import SyncKernelCLI

extension AuthPlugin: PluginCommands {
    public static let commands: [any ParsableCommand.Type] = [AuthCommand.self]
}
