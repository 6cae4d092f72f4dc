import Foundation

/// The built `ferry` executable run as a separate process, with its own config and store.
struct FerryProcess: Sendable {
    /// Where `swift build` puts the executable, relative to the package root.
    static var executable: URL? {
        var folder = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { folder.deleteLastPathComponent() }  // file, Support, Tests, Family, Plugins
        let url = folder.appendingPathComponent(".build/debug/ferry")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }

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
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + ["--config", config.path]
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return Outcome(
            status: status,
            output: String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            error: String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        )
    }
}
