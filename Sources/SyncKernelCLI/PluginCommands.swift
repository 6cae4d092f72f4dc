import ArgumentParser
import SyncKernel

/// A plugin's front end for the `ferry` command: the command groups it adds, shown in the
/// plugins' section of `ferry --help`.
///
/// The kernel knows nothing of commands; the composition root asks each plugin type for
/// its commands before any configuration is read.
///
/// ```swift
/// extension NotesPlugin: PluginCommands {
///     public static let commands: [any ParsableCommand.Type] = [NotesCommand.self]
/// }
/// ```
public protocol PluginCommands: SyncPlugin {
    /// Every top-level command group the plugin adds (`ferry <name> ...`).
    static var commands: [any ParsableCommand.Type] { get }
}
