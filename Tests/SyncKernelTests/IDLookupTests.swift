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
}
