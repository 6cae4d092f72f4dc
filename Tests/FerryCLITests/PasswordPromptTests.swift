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
@Suite("password prompt", .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"))
struct PasswordPromptTests {
    @Test func ctrlCAtThePasswordPromptRestoresEchoAndExits130() async throws {
        let ferry = try FerryExecutable.configured("server: http://127.0.0.1:9\nplugins:\n  auth: {}\n")
        let tty = try PseudoTerminal()
        #expect(tty.echoes)
        let running = try ferry.start(
            ["auth", "login", "--username", "demo"],
            environment: ["FERRY_PASSWORD": ""],
            standardInput: .handle(tty.handle)
        )
        let process = running.process

        // The prompt is up once echo is off; then the person presses Ctrl-C.
        let deadline = ContinuousClock.now + .seconds(30)
        while tty.echoes && process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        try #require(!tty.echoes, "the prompt never turned echo off")
        running.send(SIGINT)
        _ = await running.exited()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        #expect(tty.echoes, "echo stays off after Ctrl-C")
    }
}
