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
@Suite("login questions", .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"))
struct LoginQuestionTests {
    @Test func enterKeepsTheWorkOfAnotherAccount() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try FerryExecutable.configured(
            "server: \(server.baseURL)\nplugins:\n  auth: {}\ndomains:\n  bookmarks: {}\n"
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
        _ = typed.withCString { write(tty.controller, $0, strlen($0)) }
        let result = try await ferry.run(
            ["auth", "login", "--username", username],
            environment: ["FERRY_PASSWORD": password],
            standardInput: .handle(tty.handle)
        )
        return (result.status, result.output, result.error)
    }
}
