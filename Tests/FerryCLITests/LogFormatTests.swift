import Foundation
import Logging
import SyncKernelCLI
import SyncKernelTesting
import Testing

/// `--log-format json`: every log line on standard error is one JSON object a log
/// collector can read, with the same messages the text lines carry.
@Suite("Log lines as JSON")
struct LogFormatTests {
    @Test func aLineIsOneSortedObjectWithTheTimeInUTCAndMillisecondsAndItsMetadata() throws {
        let line = JSONLogHandler.line(
            time: Date(timeIntervalSince1970: 1_764_165_913.042),
            level: .warning,
            label: "ferry",
            message: "recipes: pull failed: 503",
            metadata: ["plugin": "recipes", "attempts": .stringConvertible(3), "tags": ["a", "b"]]
        )
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        #expect(object["time"] as? String == "2025-11-26T14:05:13.042Z")
        #expect(object["level"] as? String == "warning")
        #expect(object["label"] as? String == "ferry")
        #expect(object["message"] as? String == "recipes: pull failed: 503")
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["plugin"] as? String == "recipes")
        #expect(metadata["attempts"] as? String == "3")
        #expect(metadata["tags"] as? [String] == ["a", "b"])
        #expect(text.hasPrefix(#"{"label":"ferry","level":"warning","message""#))
    }

    @Test func withoutMetadataTheKeyIsLeftOut() throws {
        let line = JSONLogHandler.line(time: Date(), level: .info, label: "ferry", message: "x", metadata: [:])
        let object = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        #expect(object["metadata"] == nil)
    }

    @Test func theRunnerWritesEveryLogLineAsJSON() async throws {
        let ferry = try FerryExecutable.configured(
            """
            server: http://127.0.0.1:9
            network: {mode: online}
            plugins:
              recipes: {}
            """
        )
        // Online towards a closed port: the pull logs that it got no answer.
        let result = try await ferry.run(["--log-format", "json", "run", "--once", "--verbose"])
        let lines = result.error.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(!lines.isEmpty, "\(result.error)")
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["level"] is String && object?["message"] is String, "\(line)")
        }
        #expect(lines.contains { $0.contains("pull skipped, no answer (GET http://127.0.0.1:9/") }, "\(result.error)")
        #expect(!result.error.contains(" debug ferry :"), "no text log line: \(result.error)")
    }

    @Test func anUnknownFormatIsAUsageErrorThatNamesTheChoices() async throws {
        let ferry = try FerryExecutable.configured("server: http://127.0.0.1:9\n")
        let result = try await ferry.run(["status", "--log-format", "xml"])
        #expect(result.status == 64)
        #expect(result.error.contains("'text' and 'json'"), "\(result.error)")
    }
}
