import Foundation

/// Runs the built `ferry` executable in a folder of its own, as a person would from a shell.
struct FerryProcess {
    /// The executable next to this test bundle, if it was built.
    static var executable: URL? {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("ferry")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        let fallback = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug/ferry")
        return FileManager.default.isExecutableFile(atPath: fallback.path) ? fallback : nil
    }

    let folder: URL

    /// A new empty folder with `config` written as its config.yaml.
    static func make(config: String) throws -> FerryProcess {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try config.write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        return FerryProcess(folder: folder)
    }

    struct Result {
        let status: Int32
        let output: String
        let error: String
    }

    /// Runs `ferry arguments...` to completion.
    func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = try start(arguments, environment: environment)
        if let input { process.stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try? process.stdin.fileHandleForWriting.close()
        let output = process.stdout.fileHandleForReading.readDataToEndOfFile()
        let error = process.stderr.fileHandleForReading.readDataToEndOfFile()
        process.process.waitUntilExit()
        return Result(
            status: process.process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            error: String(decoding: error, as: UTF8.self))
    }

    struct Running {
        let process: Process
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
    }

    /// Starts `ferry arguments...` and returns at once.
    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Running {
        guard let executable = Self.executable else { throw MissingExecutable() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "FERRY_CONFIG")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let running = Running(process: process)
        process.standardInput = running.stdin
        process.standardOutput = running.stdout
        process.standardError = running.stderr
        try process.run()
        return running
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        var description: String { "the ferry executable is not built; run `swift build` first" }
    }
}
