import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `ferry` executable, run as a separate process the way a person runs it:
/// the one way tests run a child process (`ferry`, `ferry serve`, or another program such
/// as `/bin/bash`).
///
/// ```swift
/// let ferry = try FerryExecutable.configured("server: \(server.baseURL)\nplugins:\n  auth: {}\n")
/// let login = try await ferry.run(["auth", "login", "--username", "demo", "--password-stdin"], input: "demo-password")
/// let runner = try ferry.start(["run"])          // in the background
/// await runner.kill()                             // SIGKILL, as a crash would
/// let server = try ferry.serve(["--port", "0"])   // `ferry serve`, its log discarded
/// ```
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

    /// Where one of the child's standard streams goes.
    public enum Stream: @unchecked Sendable {
        /// A pipe: standard input gets `input` and is closed; the test reads standard
        /// output and error from ``Running/stdout`` and ``Running/stderr``.
        case pipe
        /// `/dev/null`: for a child nobody reads, so that it never blocks on a full pipe
        /// (a server's log).
        case discarded
        /// A file handle the test holds, such as the terminal end of a pseudo-terminal.
        case handle(FileHandle)
    }

    /// A process started with `start`.
    public struct Running: @unchecked Sendable {
        public let process: ChildProcess
        /// Its standard output, when it goes to a pipe; otherwise a pipe that is already at
        /// its end.
        public let stdout: Pipe
        /// Its standard error, as ``stdout``.
        public let stderr: Pipe

        /// Waits for the process to end, on a thread of its own (see `run`), and returns
        /// its status.
        public func exited() async -> Int32 {
            await onOwnThread {
                process.waitUntilExit()
                return process.terminationStatus
            }
        }

        /// Sends `signal` (`SIGINT` for a Ctrl-C, say) without waiting.
        public func send(_ signal: Int32) {
            #if canImport(Glibc)
            _ = Glibc.kill(process.processIdentifier, signal)
            #elseif canImport(Darwin)
            _ = Darwin.kill(process.processIdentifier, signal)
            #endif
        }

        /// Kills the process with `SIGKILL`, as a crash or a power cut would end it, and
        /// waits until it has ended.
        public func kill() async {
            guard process.isRunning else { return }
            send(SIGKILL)
            _ = await exited()
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

    /// Whether ``built`` found the executable: the condition of a test that runs it.
    public static var isBuilt: Bool { built != nil }

    public let url: URL
    /// The working folder (where `config.yaml` is looked for).
    public let folder: URL
    /// Extra environment variables; `FERRY_CONFIG` is removed unless given here.
    public let environment: [String: String]

    /// Runs the program at `url` (the built `ferry`, or another program a test needs) in `folder`.
    public init(url: URL, folder: URL, environment: [String: String] = [:]) {
        self.url = url
        self.folder = folder
        self.environment = environment
    }

    /// The built `ferry`, working in `folder` (where its `config.yaml` is); throws
    /// ``NotBuilt`` when it has not been built.
    public init(in folder: URL, environment: [String: String] = [:]) throws {
        guard let url = Self.built else { throw NotBuilt() }
        self.init(url: url, folder: folder, environment: environment)
    }

    /// The built `ferry` in `folder` (a new temporary one unless given), with `config`
    /// written there as its `config.yaml`.
    public static func configured(
        _ config: String,
        in folder: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> FerryExecutable {
        let folder =
            folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("ferry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try patientProbe(config).write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        return try FerryExecutable(in: folder, environment: environment)
    }

    /// `config`, when it names a server and says nothing of how to probe it, with a probe
    /// that waits up to a minute: the server a test runs in its own process answers late
    /// on a two-core machine busy with the rest of the suite, and a 3-second probe took it
    /// for unreachable.
    static func patientProbe(_ config: String) -> String {
        guard config.contains("server:"), !config.contains("network:") else { return config }
        return config + "\nnetwork: {probe_timeout: 60s}\n"
    }

    /// Runs `ferry arguments...` to the end and returns what it printed. Standard input
    /// gets `input` unless `standardInput` gives it something else (a terminal);
    /// `environment` adds variables to this run's, and a nil value removes one.
    public func run(
        _ arguments: [String],
        input: String? = nil,
        environment: [String: String?] = [:],
        standardInput: Stream = .pipe
    ) async throws -> Result {
        let running = try start(arguments, input: input, environment: environment, standardInput: standardInput)
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

    /// Starts `ferry arguments...` and returns at once. With `.pipe` (the default),
    /// standard input gets `input` and is closed, and the test reads standard output and
    /// error from the pipes of the result; `environment` is as in ``run(_:input:environment:standardInput:)``.
    public func start(
        _ arguments: [String],
        input: String? = nil,
        environment extra: [String: String?] = [:],
        standardInput: Stream = .pipe,
        standardOutput: Stream = .pipe,
        standardError: Stream = .pipe
    ) throws -> Running {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "FERRY_CONFIG")
        env.merge(environment) { $1 }
        for (name, value) in extra { env[name] = value }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        // Foundation's `FileHandle.nullDevice` has no descriptor on Linux.
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        let process = try ChildProcess(
            executable: url.path,
            arguments: arguments,
            environment: env,
            directory: folder.path,
            streams: [
                Self.descriptor(standardInput, pipe: stdin.fileHandleForReading, null: null),
                Self.descriptor(standardOutput, pipe: stdout.fileHandleForWriting, null: null),
                Self.descriptor(standardError, pipe: stderr.fileHandleForWriting, null: null),
            ]
        )
        // The child's ends are the child's: a pipe ends for its reader when the child exits
        // (or at once, when the child does not write to it).
        for end in [stdin.fileHandleForReading, stdout.fileHandleForWriting, stderr.fileHandleForWriting] {
            try? end.close()
        }
        if case .pipe = standardInput, let input {
            stdin.fileHandleForWriting.write(Data((input.hasSuffix("\n") ? input : input + "\n").utf8))
        }
        try? stdin.fileHandleForWriting.close()
        return Running(process: process, stdout: stdout, stderr: stderr)
    }

    /// Starts `ferry serve arguments...` in the background, its output discarded (nobody
    /// reads a server's log, and a full pipe would stall it). Stop it with ``Running/kill()``
    /// or a signal.
    public func serve(_ arguments: [String]) throws -> Running {
        try start(["serve"] + arguments, standardOutput: .discarded, standardError: .discarded)
    }

    /// The descriptor the child gets for `stream`: the child's end of its pipe, `/dev/null`
    /// or the test's handle.
    private static func descriptor(_ stream: Stream, pipe: FileHandle, null: Int32) -> Int32 {
        switch stream {
        case .pipe: pipe.fileDescriptor
        case .discarded: null
        case .handle(let handle): handle.fileDescriptor
        }
    }

    /// The `ferry` executable has not been built.
    public struct NotBuilt: Error, CustomStringConvertible {
        public var description: String { "the ferry executable is not built; run `swift build` first" }
    }
}
