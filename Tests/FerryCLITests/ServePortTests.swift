import Foundation
import SyncKernelTesting
import Testing

/// `ferry serve --port`: a port out of range is a usage error naming the range, never a
/// server on some other port.
@Suite("ferry serve --port", .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)"))
struct ServePortTests {
    @Test(arguments: ["99999", "65536", "-1", "http", ""])
    func aPortOutsideTheRangeIsRefusedWithTheRange(port: String) async throws {
        let ferry = try FerryExecutable.configured("")
        let running = try ferry.start(["serve", "--port", port])
        let deadline = Date().addingTimeInterval(20)
        while running.process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if running.process.isRunning {
            running.process.terminate()
            running.process.waitUntilExit()
            Issue.record("ferry serve --port \(port) started a server instead of refusing the port")
            return
        }
        let error = String(decoding: running.stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(running.process.terminationStatus == 64, "\(error)")
        #expect(error.contains("0 to 65535") && error.contains("0 picks a free port"), "\(error)")
    }
}
