import FerryServer
import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The questions `ferry auth login` asks at a terminal about queued work: pressing Enter
/// never deletes anything.
@Suite("login questions", .enabled(if: FerryProcess.executable != nil, "needs the ferry executable (swift build)"))
struct LoginQuestionTests {
    @Test func enterKeepsTheWorkOfAnotherAccount() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try FerryProcess.make(
            config: "server: \(server.baseURL)\nplugins:\n  auth: {}\ndomains:\n  bookmarks: {}\n"
        )
        let demo = try await ferry.run(
            ["auth", "login", "--username", "demo", "--password-stdin"],
            input: "demo-password"
        )
        try #require(demo.status == 0, "\(demo.error)")
        try #require(try await ferry.run(["network", "offline"]).status == 0)
        try #require(try await ferry.run(["domain", "bookmarks", "put", "swift", "--body", "{}"]).status == 0)
        try #require(try await ferry.run(["network", "auto"]).status == 0)

        let (status, output, error) = try await loginAtTerminal(
            ferry,
            username: "sam",
            password: "sam-password",
            typed: "\n"
        )
        #expect(status == 0, "\(error)")
        #expect(error.contains("Keep it for that account? (no discards it) [Y/n]"), "\(error)")
        #expect(output.contains("kept 1 operation(s)"), "\(output)")
        let queue = try await ferry.run(["queue", "list", "--json"])
        #expect(queue.output.contains("swift"), "the work is still queued: \(queue.output)")
        await server.stop()
    }

    /// Runs `ferry auth login` with standard input on a terminal where `typed` was typed.
    func loginAtTerminal(
        _ ferry: FerryExecutable,
        username: String,
        password: String,
        typed: String
    ) async throws -> (Int32, String, String) {
        let tty = try PseudoTerminal()
        let process = Process()
        process.executableURL = ferry.url
        process.arguments = ["auth", "login", "--username", username]
        process.currentDirectoryURL = ferry.folder
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "FERRY_CONFIG")
        environment["FERRY_PASSWORD"] = password
        process.environment = environment
        process.standardInput = tty.handle
        let running = FerryExecutable.Running(process: process, stdout: Pipe(), stderr: Pipe())
        process.standardOutput = running.stdout
        process.standardError = running.stderr
        _ = typed.withCString { write(tty.controller, $0, strlen($0)) }
        try process.run()
        return await onOwnThread {
            let output = running.stdout.fileHandleForReading.readDataToEndOfFile()
            let error = running.stderr.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                process.terminationStatus, String(decoding: output, as: UTF8.self),
                String(decoding: error, as: UTF8.self)
            )
        }
    }
}
