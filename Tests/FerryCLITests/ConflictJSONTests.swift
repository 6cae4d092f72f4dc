import Foundation
import SyncKernel
import SyncKernelCLI
import Testing

@testable import FerryCLI

/// `ferry conflicts list --json`: the values of a field both sides changed are JSON values,
/// like every document, and the base it was changed from is there too.
@Suite("conflicts as JSON")
struct ConflictJSONTests {
    static func encoded(_ field: ConflictView.Field) throws -> [String: Any] {
        let data = try JSONOutput.encode(field)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aFieldsValuesAreJSONValuesWithItsBase() throws {
        let object = try Self.encoded(.init(FieldConflict(field: "n", base: "1", local: "3", remote: #"{"a": "x"}"#)))
        #expect(object["field"] as? String == "n")
        #expect(object["base"] as? Int == 1 && object["local"] as? Int == 3)
        #expect((object["remote"] as? [String: Any])?["a"] as? String == "x")
    }

    @Test func anUnknownBaseIsNullAndTextStaysAString() throws {
        let object = try Self.encoded(
            .init(FieldConflict(field: "status", base: nil, local: #""watched""#, remote: "null"))
        )
        #expect(object["base"] is NSNull, "a known field without a value is null, not missing")
        #expect(object["local"] as? String == "watched")
        #expect(object["remote"] is NSNull)
    }
}
