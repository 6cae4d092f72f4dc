import Foundation

/// The built `ferry` executable, run as a separate process the way a person runs it.
///
/// `run` waits for the process on a thread of its own, never on Swift's cooperative pool:
/// a test that serves the process from the same test process (a FerryServer started in
/// the test) would otherwise starve the server while it waits.
public struct FerryExecutable: Sendable {
    /// What a finished run printed and how it ended.
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
        public let error: String
    }

    /// A process started with `start`.
    public struct Running: @unchecked Sendable {
        public let process: Process
        public let stdout: Pipe
        public let stderr: Pipe

        /// A process started elsewhere (with a terminal of its own, say), to wait for it here.
        public init(process: Process, stdout: Pipe, stderr: Pipe) {
            self.process = process
            self.stdout = stdout
            self.stderr = stderr
        }

        /// Waits for the process to end, on a thread of its own (see `run`), and returns
        /// its status.
        public func exited() async -> Int32 {
            await onOwnThread {
                process.waitUntilExit()
                return process.terminationStatus
            }
        }
    }

    /// The `ferry` built beside the running tests (whatever the build folder), else
    /// `.build/debug/ferry` of this package, when it has been built.
    public static var built: URL? {
        var folder = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { folder.deleteLastPathComponent() }  // file, SyncKernelTesting, Sources
        let beside = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("ferry")
        let candidates = [beside, folder.appendingPathComponent(".build/debug/ferry")].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    public let url: URL
    /// The working folder (where `config.yaml` is looked for).
    public let folder: URL
    /// Extra environment variables; `FERRY_CONFIG` is removed unless given here.
    public let environment: [String: String]

    public init(url: URL, folder: URL, environment: [String: String] = [:]) {
        self.url = url
        self.folder = folder
        self.environment = environment
    }

    /// Runs `ferry arguments...` to the end, with `input` on standard input.
    public func run(_ arguments: [String], input: String? = nil) async throws -> Result {
        let running = try start(arguments, input: input)
        return await onOwnThread {
            let output = running.stdout.fileHandleForReading.readDataToEndOfFile()
            let error = running.stderr.fileHandleForReading.readDataToEndOfFile()
            running.process.waitUntilExit()
            return Result(
                status: running.process.terminationStatus,
                output: String(decoding: output, as: UTF8.self),
                error: String(decoding: error, as: UTF8.self)
            )
        }
    }

    /// Starts `ferry arguments...` and returns at once; standard input gets `input` and is closed.
    public func start(_ arguments: [String], input: String? = nil) throws -> Running {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "FERRY_CONFIG")
        env.merge(environment) { $1 }
        process.environment = env
        let stdin = Pipe()
        let running = Running(process: process, stdout: Pipe(), stderr: Pipe())
        process.standardInput = stdin
        process.standardOutput = running.stdout
        process.standardError = running.stderr
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data((input.hasSuffix("\n") ? input : input + "\n").utf8)) }
        try? stdin.fileHandleForWriting.close()
        return running
    }
}
