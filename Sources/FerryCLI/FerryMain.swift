import ArgumentParser
import Foundation
import Logging
import SyncKernel
import SyncKernelCLI

/// The `ferry` executable's entry: parses, opens the runtime for commands that need
/// one, and turns errors into messages and exit codes.
///
/// A package of your own builds its own `ferry` with its plugins beside the shipped ones:
///
/// ```swift
/// import FerryCLI
///
/// await FerryMain.run(plugins: Composition.shipped + [BookmarksPlugin.self])
/// ```
public enum FerryMain {
    /// Runs the command line of `ferry` with the shipped plugins.
    public static func main() async {
        await run(plugins: Composition.shipped)
    }

    /// Runs the command line of `ferry` with `plugins`: each is enabled by its section
    /// under `plugins:` in config.yaml, and its commands (`PluginCommands`) join the
    /// shipped ones.
    public static func run(plugins: [any SyncPlugin.Type]) async {
        do {
            try Composition.use(plugins)
            var command = try Ferry.parseAsRoot()
            if let runtimeCommand = command as? any RuntimeCommand {
                try await RuntimeHost.run(runtimeCommand)
            } else if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as FerryError {
            Output.warn("error: \(error.rendered)")
            exit(ExitCodes.code(for: error))
        } catch let error as CommandFailure {
            exit(error.exitCode)
        } catch {
            // A remote's refusal or silence that a command did not turn into a FerryError.
            if let (code, reason) = ExitCodes.remote(error) {
                Output.warn("error: \(reason)")
                exit(code)
            }
            Ferry.exit(withError: error)
        }
    }
}

/// Exit codes, decided here and nowhere else (sysexits where one fits).
public enum ExitCodes {
    public static func code(for error: FerryError) -> Int32 {
        switch error.code {
        case .usage: 64
        case .notFound: 66
        case .requiresConnection, .remoteUnavailable: 69
        case .storage, .storageUnavailable, .file: 74
        case .conflict: 75
        case .needsLogin: 77
        case .configuration, .plugin: 78
        default: 1
        }
    }

    /// The exit status and the reason for an error from a remote (an answer or no answer),
    /// classified as the kernel classifies it; nil for any other error.
    public static func remote(_ error: any Error) -> (code: Int32, reason: String)? {
        guard error is RemoteFailure || error is TransportFailure else { return nil }
        switch FailureClass.classify(error, now: Date()) {
        case .offline(let reason), .transient(let reason, _): return (69, reason)
        case .unauthorized(let reason): return (77, reason)
        case .conflict(_, let reason, _): return (75, reason)
        case .misconfigured(let reason): return (78, reason)
        case .rejected(let reason), .waitsFor(_, let reason): return (1, reason)
        }
    }
}
