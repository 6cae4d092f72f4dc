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
    public static func main() async -> Never {
        await run(plugins: Composition.shipped)
    }

    /// Runs the command line of `ferry` with `plugins`: each is enabled by its section
    /// under `plugins:` in config.yaml, and its commands (`PluginCommands`) join the
    /// shipped ones. It ends the process with the command's exit status; it never returns.
    public static func run(plugins: [any SyncPlugin.Type]) async -> Never {
        let given = Array(CommandLine.arguments.dropFirst())
        let json = LeadingOptions.asksForJSON(given)
        do {
            try Composition.use(plugins)
            let arguments = LeadingOptions.hoisted(given, root: Ferry.self)
            if let topic = try HelpTopic.requested(in: arguments, root: Ferry.self) {
                try topic.print(json: json)
                exit(0)
            }
            if let script = CompletionScript.requested(by: arguments) {
                print(script, terminator: "")
                exit(0)
            }
            var command = try Ferry.parseAsRoot(arguments)
            if let runtimeCommand = command as? any RuntimeCommand {
                let runtime = try await RuntimeHost.run(runtimeCommand)
                // The store is not closed: the process ends with its connections open.
                // Closing the last one would copy the write-ahead log into the database
                // and fsync it, on the command's path; the next process's checkpointer
                // copies it, off its path. Nothing committed depends on either.
                withExtendedLifetime(runtime) { exit(0) }
            } else if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            exit(failure.status.rawValue)
        } catch {
            exit(report(error, json: json))
        }
        // Here, on the task's thread: returning from an async `main` ends the process
        // from a thread the runtime starts for it, which waits for a core (milliseconds
        // of a short command on a busy machine). Standard output is flushed by `exit`.
        exit(0)
    }

    /// Reports `error` on standard error, as JSON with `json`, and returns the exit status:
    /// decided here and nowhere else, from `ExitStatus`.
    static func report(_ error: any Error, json: Bool) -> Int32 {
        if let report = ErrorReport(error) {
            report.print(json: json)
            return report.status
        }
        // The argument parser's own: help and --version print as it prints them, and so do
        // its errors for people.
        let code = Ferry.exitCode(for: error)
        guard json, code != .success else { Ferry.exit(withError: error) }
        let status: ExitStatus = code == .validationFailure ? .usage : .failure
        ErrorReport(code: status == .usage ? "usage" : "failure", message: Ferry.message(for: error), status: status)
            .print(json: true)
        return status.rawValue
    }
}
