import Foundation
import Testing

@testable import SyncKernel

@Suite("Conflicts merge field by field against the base")
struct FieldMergeTests {
    static func json(_ text: String) -> Data { Data(text.utf8) }

    @Test func onlyAFieldBothSidesChangedDifferentlyIsAConflict() throws {
        let merge = try #require(
            FieldMerge(
                base: Self.json(#"{"status":"want","rating":null,"note":"a","tags":["x"]}"#),
                local: Self.json(#"{"status":"watched","note":"b","tags":["x","y"]}"#),
                remote: Self.json(#"{"status":"want","rating":7,"note":"c","tags":["x","y"],"version":2}"#)
            )
        )
        #expect(merge.conflicts == [FieldConflict(field: "note", base: #""a""#, local: #""b""#, remote: #""c""#)])
    }

    @Test func withoutABaseEveryDifferentValueIsAConflict() throws {
        let merge = try #require(
            FieldMerge(base: nil, local: Self.json(#"{"a":1,"b":2}"#), remote: Self.json(#"{"a":1,"b":3}"#))
        )
        #expect(merge.conflicts.map(\.field) == ["b"])
        #expect(merge.conflicts.first?.base == nil)
    }

    @Test func aClearedFieldIsNullAndAnAbsentRemoteFieldReadsAsNull() throws {
        let merge = try #require(
            FieldMerge(base: Self.json(#"{"a":1}"#), local: Self.json(#"{"a":null}"#), remote: Self.json("{}"))
        )
        #expect(merge.conflicts.isEmpty)
    }

    @Test func aRemoteDeletionOrAPayloadThatIsNoObjectIsDecidedWhole() {
        #expect(FieldMerge(base: nil, local: Self.json(#"{"a":1}"#), remote: Self.json("null")) == nil)
        #expect(FieldMerge(base: nil, local: Self.json("[1]"), remote: Self.json("{}")) == nil)
    }

    @Test func theFieldsTheRemoteWonAreDroppedFromThePayload() throws {
        let rest = try FieldMerge.payload(Self.json(#"{"a":1,"b":{"clear":true}}"#), dropping: ["a"])
        #expect(rest.map { String(decoding: $0, as: UTF8.self) } == #"{"b":{"clear":true}}"#)
        #expect(try FieldMerge.payload(Self.json(#"{"a":1}"#), dropping: ["a"]) == nil)
    }
}
