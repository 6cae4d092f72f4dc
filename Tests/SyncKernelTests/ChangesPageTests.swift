import Foundation
import Testing

@testable import SyncKernel

/// The one reader of the protocol's changes pages: a page is checked whole before any
/// of it is applied.
@Suite("Changes feed: pages")
struct ChangesPageTests {
    func page(_ json: String) throws -> ChangesPage {
        try ChangesPage(Data(json.utf8), feed: "/v1/things/changes")
    }

    @Test func upsertsAndDeletionsAreReadWithTheCursorAndHasMore() throws {
        let read = try page(
            #"{"changes":[{"type":"upsert","id":"a","entity":{"id":"a","v":1}},{"type":"delete","id":"b"}],"cursor":"7","has_more":true}"#
        )
        #expect(read.cursor == "7" && read.hasMore)
        #expect(read.changes.map(\.id) == ["a", "b"])
        #expect(read.changes[0].entity.map { String(decoding: $0, as: UTF8.self) } == #"{"id":"a","v":1}"#)
        #expect(read.changes[1].entity == nil)
    }

    @Test(arguments: [
        (#"{"items":[],"cursor":"1"}"#, "not a page of changes"),
        (#"{"changes":[{"type":"upsert","entity":{}}],"cursor":"1"}"#, "without an id"),
        (#"{"changes":[{"type":"upsert","id":"a"}],"cursor":"1"}"#, "without its entity"),
        (#"{"changes":[{"type":"upsert","id":"a","entity":{"id":"b"}}],"cursor":"1"}"#, "another one (id b)"),
        (#"{"changes":[{"type":"moved","id":"a"}],"cursor":"1"}"#, "of type \"moved\""),
        ("[1, 2]", "not a page of changes"),
    ])
    func aPageThatCannotBeAppliedIsRefusedWhole(json: String, reason: String) {
        let error = #expect(throws: FerryError.self) { try page(json) }
        #expect(error?.code == .rejected)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("/v1/things/changes") == true)
    }
}
