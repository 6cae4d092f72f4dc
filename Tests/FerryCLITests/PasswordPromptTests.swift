import Foundation
import SyncKernelTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ferry auth login` at a terminal: the password is typed without echo, and Ctrl-C at the
/// prompt gives the terminal back as it was.
@Suite("password prompt", .enabled(if: FerryProcess.executable != nil, "needs the ferry executable (swift build)"))
struct PasswordPromptTests {
    @Test func ctrlCAtThePasswordPromptRestoresEchoAndExits130() async throws {
        let ferry = try FerryProcess.make(config: "server: http://127.0.0.1:9\nplugins:\n  auth: {}\n")
        let tty = try PseudoTerminal()
        #expect(tty.echoes)
        let process = Process()
        process.executableURL = ferry.url
        process.arguments = ["auth", "login", "--username", "demo"]
        process.currentDirectoryURL = ferry.folder
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "FERRY_CONFIG")
        environment["FERRY_PASSWORD"] = ""
        process.environment = environment
        process.standardInput = tty.handle
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()

        // The prompt is up once echo is off; then the person presses Ctrl-C.
        let running = FerryExecutable.Running(process: process, stdout: Pipe(), stderr: Pipe())
        let deadline = ContinuousClock.now + .seconds(30)
        while tty.echoes && process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try #require(!tty.echoes, "the prompt never turned echo off")
        kill(process.processIdentifier, SIGINT)
        _ = await running.exited()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        #expect(tty.echoes, "echo stays off after Ctrl-C")
    }
}
