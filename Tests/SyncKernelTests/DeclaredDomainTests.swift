import FerryServerTesting
import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Domains declared in YAML alone")
struct DeclaredDomainTests {
    static let yaml = """
        domains:
          notes:
            operations:
              put: {method: PUT, path: "/items/{entity}", coalesce: replace}
              remove: {method: DELETE, path: "/items/{entity}", supersedes: [put]}
              save: {method: PUT, path: "/saved/{entity}", cancels: [unsave]}
              unsave: {method: DELETE, path: "/saved/{entity}", cancels: [save]}
        """

    func documents(_ test: TestRuntime) async throws -> [String: String] {
        let rows = try await test.runtime.store.read { db in try DeclaredEntities.list(domain: "notes", in: db) }
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.entity, $0.body) })
    }

    @Test func anOnlineOnlyRemovalTakesTheLocalDocumentAwayOnceTheRemoteAgreed() async throws {
        try await TestPluginServer.with { server, url in
            let yaml = Self.yaml.replacingOccurrences(of: "supersedes: [put]}", with: "supersedes: [put], delivery: online_only}")
            let test = try await TestRuntime.make(server: url, yaml: yaml, plugins: [])
            _ = try await test.runtime.submitDeclared(domain: "notes", kind: "put", entity: "a", body: Data(#"{"value":"1"}"#.utf8))
            #expect(try await test.runOnce().sent == 1)
            #expect(try await documents(test)["a"] != nil)
            let removed = try await test.runtime.submitDeclared(domain: "notes", kind: "remove", entity: "a", body: Data("{}".utf8))
            #expect(!removed.isQueued)
            #expect(try await documents(test)["a"] == nil)
            #expect(server.item("a") == nil || server.item("a")?.deleted == true)
        }
    }

    @Test func operationsAreSentAsTheirDeclaredCallsAndTheLocalDocumentAnswersFirst() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url, yaml: Self.yaml, plugins: [])
            _ = try await test.runtime.submitDeclared(
                domain: "notes",
                kind: "put",
                entity: "a b",
                body: Data(#"{"value":"1"}"#.utf8)
            )
            _ = try await test.runtime.submitDeclared(
                domain: "notes",
                kind: "put",
                entity: "a b",
                body: Data(#"{"value":"2"}"#.utf8)
            )
            #expect(try await documents(test)["a b"] == #"{"value":"2"}"#)
            #expect(try await test.operations().count == 1)
            #expect(try await test.runOnce().sent == 1)
            #expect(server.count("PUT /items/a%20b") == 1, "the entity key is percent-encoded into the path")
            #expect(server.item("a%20b")?.value == "2")
            let stored = try #require(try await documents(test)["a b"])
            #expect(stored.contains(#""version":1"#))
        }
    }

    @Test func anAnswerThatIsNotTheEntityIsRefusedAGarbledOneGoesAgainAndTheLocalDocumentsStay() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url, yaml: Self.yaml + "\nsync: {batch_size: 1}\n", plugins: [])
            for key in ["a", "b", "c"] {
                _ = try await test.runtime.submitDeclared(
                    domain: "notes", kind: "put", entity: key, body: Data(#"{"value":"mine"}"#.utf8)
                )
            }
            let before = try await documents(test)
            server.fail(
                .init(status: 200, body: #"{"id":"someone-else","value":"theirs"}"#),
                .init(status: 200, body: #"[{"value":"theirs"}]"#),
                .init(status: 200, body: #"not json"#)
            )
            let summary = try await test.runOnce()
            #expect(summary.deadLettered == 1)
            #expect(summary.retried == 2)
            #expect(try await documents(test) == before)
            let operations = try await test.operations()
            #expect(operations.contains { $0.state == .dead && $0.lastError?.contains("another entity (id someone-else, expected") == true })
            #expect(operations.filter { $0.state == .pending && $0.lastError?.contains("is not a JSON object") == true }.count == 2)
            // Sent again once their backoff is over, the garbled two get real answers.
            test.clock.advance(by: 3600)
            #expect(try await test.runOnce().sent == 2)
        }
    }

    @Test func aLaterWriteGoesOnTheAnswerToTheEarlierOneNotIntoAConflictWithIt() async throws {
        try await TestPluginServer.with { server, url in
            let yaml = """
                domains:
                  notes:
                    operations:
                      put: {method: PUT, path: "/items/{entity}", coalesce: keep_all}
                    conflict: server_wins
                """
            let test = try await TestRuntime.make(server: url, yaml: yaml, plugins: [])
            for value in ["1", "2", "3"] {
                _ = try await test.runtime.submitDeclared(
                    domain: "notes", kind: "put", entity: "a", body: Data(#"{"value":"\#(value)"}"#.utf8)
                )
                if value == "1" { #expect(try await test.runOnce().sent == 1) }
            }
            // Both made on version 1; the second is made on top of the first, so it goes with
            // the version the first's answer gave, and no conflict loses it.
            #expect(try await test.runOnce().sent == 2)
            #expect(server.item("a")?.value == "3")
            #expect(try await test.operations().isEmpty)
        }
    }

    @Test func aWriteMadeAfterADeletionCreatesTheDocumentAgainInsteadOfLosingToTheDeletion() async throws {
        try await TestPluginServer.with { server, url in
            let yaml = """
                domains:
                  notes:
                    operations:
                      put: {method: PUT, path: "/items/{entity}", coalesce: keep_all}
                      remove: {method: DELETE, path: "/items/{entity}", coalesce: keep_all}
                    conflict: server_wins
                """
            let test = try await TestRuntime.make(server: url, yaml: yaml, plugins: [])
            func submit(_ kind: String, _ body: String) async throws {
                _ = try await test.runtime.submitDeclared(domain: "notes", kind: kind, entity: "a", body: Data(body.utf8))
            }
            try await submit("put", #"{"value":"1"}"#)
            #expect(try await test.runOnce().sent == 1)
            try await submit("put", #"{"value":"2"}"#)
            try await submit("remove", "{}")
            try await submit("put", #"{"value":"3"}"#)
            // The last put was made after the deletion: it goes without the version the first
            // put's answer gave, and creates the document again rather than meet the
            // deletion as a conflict the remote wins.
            #expect(try await test.runOnce().sent == 3)
            #expect(server.item("a")?.value == "3")
            #expect(server.item("a")?.deleted == nil)
            #expect(try await documents(test)["a"]?.contains(#""value":"3""#) == true)
            #expect(try await test.operations().isEmpty)
        }
    }

    @Test func declaredCoalescingCancelsAnUnsentPair() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url, yaml: Self.yaml, plugins: [])
            _ = try await test.runtime.submitDeclared(
                domain: "notes",
                kind: "save",
                entity: "r1",
                body: Data("{}".utf8)
            )
            let result = try await test.runtime.submitDeclared(
                domain: "notes",
                kind: "unsave",
                entity: "r1",
                body: Data("{}".utf8)
            )
            guard case .queued(.cancelled) = result else {
                Issue.record("expected the pair to cancel")
                return
            }
            #expect(try await test.runOnce().sent == 0)
            #expect(server.requests.filter { $0.contains("/saved/") }.isEmpty)
        }
    }

    @Test func aDeleteRemovesTheLocalDocumentAndSupersedesAnUnsentPut() async throws {
        try await TestPluginServer.with { server, url in
            let test = try await TestRuntime.make(server: url, yaml: Self.yaml, plugins: [])
            _ = try await test.runtime.submitDeclared(
                domain: "notes",
                kind: "put",
                entity: "a",
                body: Data(#"{"value":"x"}"#.utf8)
            )
            _ = try await test.runtime.submitDeclared(
                domain: "notes",
                kind: "remove",
                entity: "a",
                body: Data("{}".utf8)
            )
            #expect(try await documents(test)["a"] == nil)
            #expect(try await test.operations().map(\.kind) == ["remove"])
            try await test.runOnce()
            #expect(server.count("PUT /items/a") == 0)
            #expect(server.count("DELETE /items/a") == 1)
        }
    }

    @Test func badDeclarationsAreNamed() async throws {
        let unknownCancel =
            "domains:\n  notes:\n    operations:\n      save: {method: PUT, path: /x, cancels: [unsav]}\n"
        let error = await #expect(throws: FerryError.self) {
            _ = try await TestRuntime.make(server: "http://127.0.0.1:9", yaml: unknownCancel, plugins: [])
        }
        #expect(error?.message.contains("domains.notes.operations.save refers to unsav") == true)
        // Without operations a domain uses the documents API, whose names are lower case.
        let unnamed = await #expect(throws: FerryError.self) {
            _ = try await TestRuntime.make(server: "http://127.0.0.1:9", yaml: "domains:\n  My.Notes: {}\n", plugins: [])
        }
        #expect(unnamed?.message.contains("domains.My.Notes has no operations, so it uses the documents API") == true)
        let scoped = await #expect(throws: FerryError.self) {
            _ = try await TestRuntime.make(
                server: "http://127.0.0.1:9",
                yaml: "domains:\n  notes:\n    scope: shared\n    operations:\n      save: {method: PUT, path: /x}\n",
                plugins: []
            )
        }
        #expect(scoped?.message.contains("domains.notes.scope applies to the documents API only") == true)
        let typo = await #expect(throws: FerryError.self) {
            _ = try await TestRuntime.make(
                server: "http://127.0.0.1:9",
                yaml: "domains:\n  notes:\n    operations:\n      put: {methd: PUT, path: /x}\n",
                plugins: []
            )
        }
        #expect(typo?.message.contains("domains.notes.operations.put") == true)
    }

    @Test func aBodyThatIsNotJSONIsRefusedAndNothingIsQueued() async throws {
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9", yaml: Self.yaml, plugins: [])
        let error = await #expect(throws: FerryError.self) {
            _ = try await test.runtime.submitDeclared(
                domain: "notes",
                kind: "put",
                entity: "a",
                body: Data("{oops".utf8)
            )
        }
        #expect(error?.code == .usage)
        #expect(try await test.operations().isEmpty)
    }
}
