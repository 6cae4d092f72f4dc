import FerryServer
import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

/// `ferry run` writes what it says to people (its summary lines, sentences, the lines of
/// --verbose) on standard error; standard output is only for the --json stream.
@Suite("ferry run's streams", .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"))
struct RunStreamTests {
    @Test func verboseLinesGoToStandardErrorAndStandardOutputStaysEmpty() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try FerryExecutable.configured(
            "server: \(server.baseURL)\nplugins:\n  auth: {}\ndomains:\n  bookmarks: {}\n"
        )
        let login = try await ferry.run(
            ["auth", "login", "--username", "demo", "--password-stdin"],
            input: "demo-password"
        )
        try #require(login.status == 0, "\(login.error)")
        let put = try await ferry.run([
            "domain", "bookmarks", "put", "swift", "--body", #"{"url": "https://swift.org"}"#,
        ])
        try #require(put.status == 0, "\(put.error)")

        let running = try ferry.start(["run", "--verbose"])
        let said = await running.lines(of: running.stderr) { $0.hasPrefix("sent      bookmarks") }
        running.process.terminate()
        _ = await running.exited()
        let output = await onOwnThread { running.stdout.fileHandleForReading.readDataToEndOfFile() }
        #expect(said.contains { $0.hasPrefix("sent      bookmarks put swift") }, "\(said)")
        #expect(output.isEmpty, "\(String(decoding: output, as: UTF8.self))")
        await server.stop()
    }
}
