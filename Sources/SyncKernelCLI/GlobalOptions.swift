import ArgumentParser
import Foundation
import SyncKernel

/// Options every command accepts.
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(
        name: .long,
        help: ArgumentHelp("The configuration file (default: $FERRY_CONFIG, else ./config.yaml).", valueName: "path"),
        completion: .file()
    )
    public var config: String?

    @Flag(name: .long, help: "Print data as JSON, for scripts (docs/json.md).")
    public var json = false

    @Flag(name: .long, help: "Log what the kernel does.")
    public var verbose = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How log lines on standard error are written: text, or json (one object per line, docs/json.md).",
            valueName: "format"
        )
    )
    public var logFormat: LogFormat = .text

    public init() {}

    /// The configuration path this invocation uses.
    public var configPath: String {
        config ?? ProcessEnvironment.value("FERRY_CONFIG") ?? "config.yaml"
    }

    /// Where the command writes: JSON with `--json`, text for people without.
    public var output: Output { Output(json: json) }
}

/// A command that works on an opened runtime; the CLI opens it from `global` and calls
/// `run(in:)`, so no command opens databases itself.
public protocol RuntimeCommand: AsyncParsableCommand {
    var global: GlobalOptions { get }
    func run(in runtime: FerryRuntime) async throws
}

extension RuntimeCommand {
    public mutating func run() async throws {
        throw FerryError(.usage, "this command needs the ferry executable, which opens the runtime for it")
    }
}

/// A command finished and already told the user why it failed (its report says so); only
/// the exit status is left.
public struct CommandFailure: Error {
    public let status: ExitStatus
    public init(_ status: ExitStatus = .failure) { self.status = status }
}
