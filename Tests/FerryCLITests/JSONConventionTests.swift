import FerryCLI
import Foundation
import SyncKernel
import SyncKernelCLI
import Testing

/// The one JSON convention of `--json` (docs/json.md), and the command line around it.
@Suite("JSON convention and global options")
struct JSONConventionTests {
    struct Inner: Encodable {
        let note: String?
    }

    struct Sample: Encodable {
        let userID: String
        let lastSync: Date?
        let createdAt: Date
        let items: [Inner]
        let counts: [String: Int]
        let document: JSONValue
    }

    static func encoded(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONOutput.encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func keysAreSnakeCaseDatesISO8601AndMissingValuesNull() throws {
        let object = try Self.encoded(
            Sample(
                userID: "u1",
                lastSync: nil,
                createdAt: Date(timeIntervalSince1970: 0),
                items: [Inner(note: nil)],
                counts: ["myPlugin": 2],
                document: JSONValue(parsing: #"{"camelCase": [1, 2.5, true, null, "x"]}"#)
            )
        )
        #expect(object["user_id"] as? String == "u1")
        #expect(object["last_sync"] is NSNull, "a known field without a value is null, not missing")
        #expect(object["created_at"] as? String == "1970-01-01T00:00:00Z")
        #expect((object["items"] as? [[String: Any]])?.first?["note"] is NSNull, "nulls are kept at every depth")
        #expect((object["counts"] as? [String: Int]) == ["myPlugin": 2], "a map's keys are data, kept as they are")
        let document = try #require(object["document"] as? [String: Any], "a document is a JSON value, not a string")
        let values = try #require(document["camelCase"] as? [Any], "a document's keys are its own")
        #expect(values.count == 5 && values[0] as? Int == 1 && values[3] is NSNull)
    }

    @Test func textThatIsNotJSONStaysAString() throws {
        #expect(JSONValue(parsing: "not json {") == .string("not json {"))
        #expect(JSONValue(parsing: "") == .string(""))
    }

    @Test func errorsAreOneObjectWithCodeMessageAndExitCode() throws {
        let report = try #require(ErrorReport(FerryError(.notFound, "no operation x")))
        let line = try JSONOutput.encode(report, oneLine: true)
        #expect(!line.contains(UInt8(ascii: "\n")))
        let error = try #require(try Self.encoded(report)["error"] as? [String: Any])
        #expect(error["code"] as? String == "not_found")
        #expect(error["message"] as? String == "no operation x")
        #expect(error["exit_code"] as? Int == 66)
    }

    @Test(arguments: [
        (["--json", "status"], ["status", "--json"]),
        (["--json", "queue", "list", "--state", "dead"], ["queue", "list", "--json", "--state", "dead"]),
        (["--config", "a.yaml", "--verbose", "family", "round", "show", "r1"], ["family", "round", "show", "--config", "a.yaml", "--verbose", "r1"]),
        (["--config=a.yaml", "domain", "notes", "list"], ["domain", "--config=a.yaml", "notes", "list"]),
        (["status", "--json"], ["status", "--json"]),
        (["--json"], []),
    ])
    func globalOptionsBeforeTheSubcommandMoveAfterIt(given: [String], parsed: [String]) {
        #expect(LeadingOptions.hoisted(given, root: Ferry.self) == parsed)
    }

    @Test func aConflictHasAnExitCodeOfItsOwn() {
        #expect(ExitStatus(for: .conflict) == .conflict)
        #expect(ExitStatus.conflict.rawValue != ExitStatus.tryLater.rawValue)
        #expect(Set(ExitStatus.allCases.map(\.rawValue)).count == ExitStatus.allCases.count)
    }

    @Test func theReadmeExitCodeTableIsTheOneInCode() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Exit codes").dropFirst().first)
        #expect(section.contains(ExitStatus.markdownTable), "README's table differs from ExitStatus: copy ExitStatus.markdownTable")
    }

    @Test func helpTopicsAreFoundWithOrWithoutJSON() {
        #expect(HelpTopic(arguments: ["help", "exit-codes"]) == .exitCodes)
        #expect(HelpTopic(arguments: ["help", "environment", "--json"]) == .environment)
        #expect(HelpTopic(arguments: ["help", "status"]) == nil)
    }
}
