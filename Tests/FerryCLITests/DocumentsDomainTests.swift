import FerryServer
import FerryServerTesting
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// A domain declared in YAML with no operations and no server change: it syncs through
/// FerryServer's documents API, with conditional writes and the conflict policies.
@Suite("A YAML domain on the documents API")
struct DocumentsDomainTests {
    static func device(_ server: RunningFerryServer, yaml: String = "domains:\n  bookmarks: {}\n") async throws
        -> TestRuntime
    {
        try await TestRuntime.make(
            server: server.baseURL,
            yaml: yaml,
            plugins: [],
            credentials: try await StaticCredentials.signedIn(at: server.baseURL)
        )
    }

    static func documents(_ device: TestRuntime) async throws -> [String: [String: Any]] {
        let rows = try await device.runtime.store.read { db in try DeclaredEntities.list(domain: "bookmarks", in: db) }
        var found: [String: [String: Any]] = [:]
        for row in rows { found[row.entity] = try JSONSerialization.jsonObject(with: Data(row.body.utf8)) as? [String: Any] }
        return found
    }

    static func put(_ device: TestRuntime, _ entity: String, _ body: String, kind: String = "put") async throws {
        _ = try await device.runtime.submitDeclared(domain: "bookmarks", kind: kind, entity: entity, body: Data(body.utf8))
    }

    @Test func createUpdateDeleteAndPullWithNoServerChange() async throws {
        let server = try await DemoFerryServer.start()
        let phone = try await Self.device(server)
        let laptop = try await Self.device(server)
        try await Self.put(phone, "swift", #"{"url": "https://swift.org", "title": "Swift"}"#)
        #expect(try await phone.runOnce().sent == 1)
        try await laptop.runOnce()
        #expect(try await Self.documents(laptop)["swift"]?["title"] as? String == "Swift")

        try await Self.put(laptop, "swift", #"{"title": "The Swift language"}"#, kind: "patch")
        #expect(try await laptop.runOnce().sent == 1)
        try await phone.runOnce()
        let patched = try #require(try await Self.documents(phone)["swift"])
        #expect(patched["title"] as? String == "The Swift language" && patched["url"] as? String == "https://swift.org")

        try await Self.put(phone, "swift", "{}", kind: "delete")
        #expect(try await phone.runOnce().sent == 1)
        try await laptop.runOnce()
        #expect(try await Self.documents(laptop).isEmpty)
        await server.stop()
    }

    @Test func aWriteMadeOnAnOlderVersionIsAConflictThePolicyDecidesAndListsWithBothValues() async throws {
        let server = try await DemoFerryServer.start()
        let phone = try await Self.device(server)
        let laptop = try await Self.device(server)
        try await Self.put(phone, "swift", #"{"url": "https://swift.org", "title": "Swift"}"#)
        try await phone.runOnce()
        try await laptop.runOnce()

        // Both change the title of version 1; the laptop's reaches the server first.
        try await Self.put(laptop, "swift", #"{"title": "Laptop's title"}"#, kind: "patch")
        try await Self.put(phone, "swift", #"{"title": "Phone's title", "tag": "lang"}"#, kind: "patch")
        try await laptop.runOnce()
        try await phone.runOnce()

        let reports = try await phone.runtime.store.read { db in try ConflictStore.list(openOnly: false, in: db) }
        let report = try #require(reports.first, "the phone's stale write went through unconditionally")
        #expect(report.status == 412)
        #expect(report.fields.map(\.field) == ["title"])
        #expect(report.fields.first?.remote == #""Laptop's title""#)
        // The field the laptop did not touch still goes.
        try await laptop.runOnce()
        #expect(try await Self.documents(laptop)["swift"]?["tag"] as? String == "lang")
        await server.stop()
    }

    @Test func aDiscardedWriteShowsTheDocumentAsItWasBefore() async throws {
        let server = try await DemoFerryServer.start()
        let device = try await Self.device(server)
        try await Self.put(device, "swift", #"{"url": "https://swift.org", "title": "Swift"}"#)
        try await device.runOnce()
        device.connectivity.set(.offline)

        try await Self.put(device, "swift", #"{"title": "Changed my mind"}"#, kind: "patch")
        let patch = try #require(try await device.operations().first)
        try await device.runtime.discard(patch)
        #expect(try await Self.documents(device)["swift"]?["title"] as? String == "Swift")

        try await Self.put(device, "draft", #"{"url": "https://example.org"}"#)
        let put = try #require(try await device.operations().first)
        try await device.runtime.discard(put)
        #expect(try await Self.documents(device)["draft"] == nil, "a discarded new document stayed")
        await server.stop()
    }

    @Test func withoutAPluginThatSignsInTheHeldWorkSaysToEnableOne() async throws {
        let server = try await DemoFerryServer.start()
        let device = try await TestRuntime.make(server: server.baseURL, yaml: "domains:\n  bookmarks: {}\n", plugins: [])
        try await Self.put(device, "swift", #"{"url": "https://swift.org"}"#)
        #expect(try await device.runOnce().sent == 0)
        let operation = try #require(try await device.operations().first)
        let why = try await QueueInspector(runtime: device.runtime).explain(operation)
        #expect(why.remedy == .enableSignIn, "\(why.text)")
        await server.stop()
    }

    /// Two devices change the title of one document; the second to arrive meets a 412
    /// (or, creating it, a 409) and its policy decides.
    static func race(_ server: RunningFerryServer, yaml: String, kind: String) async throws -> (TestRuntime, TestRuntime) {
        let first = try await Self.device(server, yaml: yaml)
        let second = try await Self.device(server, yaml: yaml)
        if kind != "create" {
            try await Self.put(first, "swift", #"{"title": "Swift"}"#)
            try await first.runOnce()
            try await second.runOnce()
        }
        try await Self.put(first, "swift", #"{"title": "First"}"#, kind: kind)
        try await Self.put(second, "swift", #"{"title": "Second"}"#, kind: kind)
        try await first.runOnce()
        try await second.runOnce()
        return (first, second)
    }

    @Test func serverWinsManualAndFirstWriteWinsEachMeetARealConflict() async throws {
        let server = try await DemoFerryServer.start()
        let serverWins = "domains:\n  bookmarks:\n    operations:\n      put: {method: PUT, path: \"/v1/domains/bookmarks/documents/{entity}\"}\n      patch: {method: PATCH, path: \"/v1/domains/bookmarks/documents/{entity}\", conflict: server_wins}\n    pull: /v1/domains/bookmarks/changes\n"
        let (_, adopted) = try await Self.race(server, yaml: serverWins, kind: "patch")
        #expect(try await Self.documents(adopted)["swift"]?["title"] as? String == "First")
        #expect(try await adopted.operations().isEmpty)

        let manual = serverWins.replacingOccurrences(of: "server_wins", with: "manual")
        let (_, waiting) = try await Self.race(server, yaml: manual, kind: "patch")
        let open = try await waiting.runtime.store.read { db in try ConflictStore.list(openOnly: true, in: db) }
        #expect(open.first?.fields.first?.field == "title", "no open conflict for a person")
        _ = try await waiting.runtime.resolveConflict(id: try #require(open.first).id, keepLocal: true)
        try await waiting.runOnce()
        let after = try await Self.device(server, yaml: manual)
        try await after.runOnce()
        #expect(try await Self.documents(after)["swift"]?["title"] as? String == "Second")
        await server.stop()

        let fresh = try await DemoFerryServer.start()
        let createOnly = "domains:\n  bookmarks:\n    operations:\n      create: {method: PUT, path: \"/v1/domains/bookmarks/documents/{entity}\", create_only: true, conflict: first_write_wins}\n    pull: /v1/domains/bookmarks/changes\n"
        let (_, lost) = try await Self.race(fresh, yaml: createOnly, kind: "create")
        #expect(try await Self.documents(lost)["swift"]?["title"] as? String == "First", "the second create overwrote the first")
        let reports = try await lost.runtime.store.read { db in try ConflictStore.list(openOnly: false, in: db) }
        #expect(reports.first?.status == 409 && reports.first?.outcome == "remote")
        await fresh.stop()
    }

    @Test func aPullKeepsOnlyTheDocumentsItsFilterNames() async throws {
        let server = try await DemoFerryServer.start()
        let writer = try await Self.device(server)
        try await Self.put(writer, "a", #"{"kind": "link", "url": "https://a.example"}"#)
        try await Self.put(writer, "b", #"{"kind": "note", "text": "b"}"#)
        try await writer.runOnce()
        let reader = try await Self.device(server, yaml: "domains:\n  bookmarks:\n    pull_only: {kind: link}\n")
        try await reader.runOnce()
        #expect(Set(try await Self.documents(reader).keys) == ["a"])
        await server.stop()
    }

    @Test func deletingADocumentTheServerNeverHadIsDoneNotADeadLetter() async throws {
        let server = try await DemoFerryServer.start()
        let device = try await Self.device(server)
        try await Self.put(device, "draft", #"{"title": "Never sent"}"#)
        try await Self.put(device, "draft", "{}", kind: "delete")
        let pass = try await device.runOnce()
        #expect(pass.deadLettered == 0 && !pass.failed)
        #expect(try await device.operations().isEmpty)
        await server.stop()
    }

    @Test func aShortDeclarationTakesOneConflictPolicyForItsOperations() async throws {
        let server = try await DemoFerryServer.start()
        let (_, waiting) = try await Self.race(server, yaml: "domains:\n  bookmarks: {conflict: manual}\n", kind: "patch")
        let open = try await waiting.runtime.store.read { db in try ConflictStore.list(openOnly: true, in: db) }
        #expect(open.first?.policy == .manual, "the short declaration's policy was not used")
        await server.stop()
    }
}
