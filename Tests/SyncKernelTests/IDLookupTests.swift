import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Testing

/// Short ids typed by a person are text, never patterns.
@Suite("Looking up operations and conflicts by a short id")
struct IDLookupTests {
    @Test func wildcardsAndAnEmptyIdMatchNothing() async throws {
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9")
        _ = try await TestPlugin.put("a", "1", in: test.runtime)
        _ = try await TestPlugin.put("b", "2", in: test.runtime)
        let inspector = QueueInspector(runtime: test.runtime)
        for pattern in ["%", "_", "", "%%"] {
            let error = await #expect(throws: FerryError.self) { try await inspector.find(pattern) }
            #expect(error?.code == .notFound, "\(pattern)")
        }
        let first = try #require(try await test.operations().first)
        #expect(try await inspector.find(first.id.uuidString).id == first.id)
        #expect(try await inspector.find(String(first.id.uuidString.suffix(12))).id == first.id)
        let conflict = try await test.runtime.store.read { db in try ConflictStore.find("%", in: db) }
        #expect(conflict == nil)
    }

    /// `queue list` shows the last 8 characters of an id: the first few of those find it.
    @Test func theFirstCharactersOfTheShortIdFindTheOperation() async throws {
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9")
        _ = try await TestPlugin.put("a", "1", in: test.runtime)
        _ = try await TestPlugin.put("b", "2", in: test.runtime)
        let inspector = QueueInspector(runtime: test.runtime)
        let operations = try await test.operations()
        for operation in operations {
            let others = operations.filter { $0.id != operation.id }.map(\.shortID)
            let short = operation.shortID
            // A start of the short id that no other short id shares, and long enough not to
            // be the start or the end of another full id but by a one-in-millions chance.
            let length = try #require((6...8).first { n in !others.contains { $0.hasPrefix(short.prefix(n)) } })
            #expect(try await inspector.find(String(short.prefix(length))).id == operation.id)
            #expect(try await inspector.find(short.uppercased()).id == operation.id)
        }
    }

    @Test func anAmbiguousStartIsAUsageErrorNamingTheMatches() async throws {
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9")
        _ = try await TestPlugin.put("a", "1", in: test.runtime)
        _ = try await TestPlugin.put("b", "2", in: test.runtime)
        let ids = try await test.operations().map { $0.id.uuidString.lowercased() }
        // Time-ordered ids made at one moment share their start.
        let common = String(zip(ids[0], ids[1]).prefix { $0 == $1 }.map(\.0))
        try #require(!common.isEmpty)
        let error = await #expect(throws: FerryError.self) {
            try await QueueInspector(runtime: test.runtime).find(common)
        }
        #expect(error?.code == .usage)
        for id in ids { #expect(error?.message.contains(String(id.suffix(8))) == true, "\(error?.message ?? "")") }
    }
}
