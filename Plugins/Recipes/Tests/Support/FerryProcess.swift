import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The built `ferry` executable, run as a real process against a config file.
struct FerryProcess {
    /// `.build/debug/ferry` of this package, found from this file's path.
    static let executable: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/debug/ferry")

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    let config: String

    /// The outcome of a finished run.
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Starts `ferry ARGS --config CONFIG` without waiting.
    func start(_ arguments: [String], input: String? = nil) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments + ["--config", config]
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "FERRY_CONFIG")
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data((input + "\n").utf8)) }
        try? stdin.fileHandleForWriting.close()
        return (process, output, errors)
    }

    /// Runs `ferry ARGS` to the end.
    @discardableResult
    func run(_ arguments: [String], input: String? = nil) throws -> Result {
        let (process, output, errors) = try start(arguments, input: input)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: out, as: UTF8.self), errors: String(decoding: err, as: UTF8.self))
    }
}
