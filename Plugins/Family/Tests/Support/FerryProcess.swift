import Foundation
import SyncKernelTesting

/// The built `ferry` executable run as a separate process, with its own config and store.
struct FerryProcess: Sendable {
    /// Where `swift build` puts the executable, relative to the package root.
    static var executable: URL? { FerryExecutable.built }

    /// What a run printed and how it ended.
    struct Outcome: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    let executable: URL
    let config: URL

    /// A process signed in as demo against `server`, with a store of its own in `folder`.
    static func make(executable: URL, server: String, folder: URL) throws -> FerryProcess {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("config.yaml")
        let yaml = """
            data_dir: \(folder.appendingPathComponent("data").path)
            server: \(server)
            network:
              mode: online
            plugins:
              auth:
                username: demo
                password: demo-password
              family: {}

            """
        try yaml.write(to: config, atomically: true, encoding: .utf8)
        return FerryProcess(executable: executable, config: config)
    }

    /// Runs `ferry ARGUMENTS --config CONFIG` and waits for it to end.
    func run(_ arguments: [String]) async throws -> Outcome {
        let result = try await FerryExecutable(url: executable, folder: config.deletingLastPathComponent())
            .run(arguments + ["--config", config.path])
        return Outcome(status: result.status, output: result.output, error: result.error)
    }
}
