import ArgumentParser
import Foundation
import SyncKernel

/// Options every command accepts.
public struct GlobalOptions: ParsableArguments, Sendable {
    @Option(name: .long, help: "The configuration file (default: $FERRY_CONFIG, else ./config.yaml).")
    public var config: String?

    @Flag(name: .long, help: "Print data as JSON, for scripts.")
    public var json = false

    @Flag(name: .long, help: "Log what the kernel does.")
    public var verbose = false

    public init() {}

    /// The configuration path this invocation uses.
    public var configPath: String {
        config ?? ProcessInfo.processInfo.environment["FERRY_CONFIG"] ?? "config.yaml"
    }
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

/// A command finished and already told the user why it failed; only the exit code is left.
public struct CommandFailure: Error {
    public let exitCode: Int32
    public init(exitCode: Int32 = 1) { self.exitCode = exitCode }
}
