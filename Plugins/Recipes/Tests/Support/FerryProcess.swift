import Foundation
import SyncKernelTesting

/// The built `ferry` executable, run as a real process against a config file.
struct FerryProcess {
    static var isBuilt: Bool { FerryExecutable.built != nil }

    let config: String

    private var executable: FerryExecutable {
        get throws {
            guard let url = FerryExecutable.built else { throw CocoaError(.fileNoSuchFile) }
            return FerryExecutable(url: url, folder: URL(fileURLWithPath: config).deletingLastPathComponent())
        }
    }

    /// The outcome of a finished run.
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Starts `ferry ARGS --config CONFIG` without waiting.
    func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let running = try executable.start(arguments + ["--config", config])
        return (running.process, running.stdout, running.stderr)
    }

    /// Runs `ferry ARGS --config CONFIG` to the end.
    @discardableResult
    func run(_ arguments: [String], input: String? = nil) async throws -> Result {
        let result = try await executable.run(arguments + ["--config", config], input: input)
        return Result(status: result.status, output: result.output, errors: result.error)
    }
}
