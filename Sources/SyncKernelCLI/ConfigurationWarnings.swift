import Foundation
import SyncKernel

/// What a person should know about the configuration before a command runs; the command
/// goes on.
public enum ConfigurationWarnings {
    /// The warnings for `configuration`, each one sentence.
    public static func of(_ configuration: FerryConfiguration) -> [String] {
        guard configuration.isEmpty else { return [] }
        return [
            "warning: \(configuration.file) is empty (or only comments): the defaults are used and no plugin is enabled; add a section under `plugins:` (docs/configuration.md)"
        ]
    }

    /// Prints the warnings for `configuration` on standard error.
    public static func print(_ configuration: FerryConfiguration) {
        for warning in of(configuration) { Output.warn(warning) }
    }
}
