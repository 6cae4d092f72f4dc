import FerryServerTesting
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// `sync.max_answer`: an answer larger than the limit is a failed send with its reason,
/// never read whole into memory.
@Suite("Transport: the answer limit")
struct AnswerLimitTests {
    static let yaml = "sync: {max_answer: 64KiB, batch_size: 1}\nplugins:\n  items: {}\n"

    @Test func anOversizeAnswerIsADeadLetterThatNamesTheLimit() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url, yaml: Self.yaml)
            server.fail(.init(status: 200, body: String(repeating: "x", count: 1 << 20)))
            _ = try await TestPlugin.put("a", "v", in: test.runtime)
            let summary = try await test.runOnce()
            #expect(summary.deadLettered == 1)
            let operation = try #require(try await test.operations().first)
            #expect(operation.state == .dead)
            #expect(operation.lastError?.contains("sync.max_answer") == true)
        }
    }

    @Test func theLimitIsCheckedWhenTheConfigurationIsRead() throws {
        let error = #expect(throws: FerryError.self) {
            try FerryConfiguration.parse("sync: {max_answer: 10}\n", file: "config.yaml")
        }
        #expect(error?.message.contains("sync.max_answer") == true)
    }
}
