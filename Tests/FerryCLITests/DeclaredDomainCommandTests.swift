import FerryServer
import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

/// A domain written in config.yaml alone, used from the command line against the reference server.
@Suite(
    "ferry domain against FerryServer",
    .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)")
)
struct DeclaredDomainCommandTests {
    @Test func aYAMLOnlyDomainPullsQueuesAndSends() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try FerryExecutable.configured(
            """
            server: \(server.baseURL)
            plugins:
              auth: {username: demo, password: demo-password}
            domains:
              favourites:
                pull: /v1/saved-recipes/changes
                operations:
                  save: {method: PUT, path: "/v1/saved-recipes/{entity}", cancels: [unsave]}
                  unsave: {method: DELETE, path: "/v1/saved-recipes/{entity}", cancels: [save]}
            """
        )
        let first = try await ferry.run(["run", "--once"])
        #expect(first.status == 0, "\(first.error)")
        let pulled = try await ferry.run(["domain", "favourites", "list", "--json"])
        let listing = try JSONSerialization.jsonObject(with: Data(pulled.output.utf8)) as? [String: Any]
        let entities = (listing?["documents"] as? [[String: Any]])?.compactMap { $0["entity"] as? String }
        #expect(entities?.contains("demo-dal") == true)

        #expect(try await ferry.run(["domain", "favourites", "save", "demo-pancakes"]).output.contains("queued save"))
        #expect(try await ferry.run(["domain", "favourites", "unsave", "demo-dal"]).status == 0)
        let sent = try await ferry.run(["run", "--once"])
        #expect(sent.output.contains("sent 2"), "\(sent.output)")
        let fresh = try FerryExecutable.configured(
            try String(contentsOf: ferry.folder.appendingPathComponent("config.yaml"), encoding: .utf8)
        )
        #expect(try await fresh.run(["run", "--once"]).status == 0)
        let after = try await fresh.run(["domain", "favourites", "list"]).output
        #expect(after.contains("demo-pancakes"))
        #expect(!after.contains("demo-dal"))

        let unknown = try await ferry.run(["domain", "favourites", "sav", "x"])
        #expect(unknown.status == 64)
        #expect(unknown.error.contains("it has: save, unsave"))
        await server.stop()
    }

    @Test func aDocumentsAPIDomainNeedsNoServerChangeAndPrintsDocumentsAsJSON() async throws {
        let server = try await DemoFerryServer.start()
        let ferry = try FerryExecutable.configured(
            """
            server: \(server.baseURL)
            plugins:
              auth: {username: demo, password: demo-password}
            domains:
              bookmarks: {}
            """
        )
        let check = try await ferry.run(["config", "check"])
        #expect(check.output.contains("domain bookmarks: delete, patch, put on the documents API"), "\(check.output)")
        let put = try await ferry.run(["domain", "bookmarks", "put", "swift", "--body", #"{"url": "https://swift.org"}"#])
        #expect(put.status == 0, "\(put.error)")
        #expect(try await ferry.run(["run", "--once"]).output.contains("sent 1"))
        let listed = try await ferry.run(["domain", "bookmarks", "list", "--json"])
        let listing = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any]
        let rows = listing?["documents"] as? [[String: Any]]
        let document = rows?.first?["document"] as? [String: Any]
        #expect(document?["url"] as? String == "https://swift.org", "the document is not JSON: \(listed.output)")
        #expect(document?["version"] as? Int == 1)

        // A key taken from the document: a URL, hashed into a key the remote takes.
        let keyed = try FerryExecutable.configured(
            """
            server: \(server.baseURL)
            plugins:
              auth: {username: demo, password: demo-password}
            domains:
              links: {key: {field: url, hash: true}}
            """
        )
        let added = try await keyed.run(["domain", "links", "put", "--body", #"{"url": "https://swift.org/blog/"}"#])
        #expect(added.status == 0 && added.output.contains("queued put on k"), "\(added.output) \(added.error)")
        #expect(try await keyed.run(["run", "--once"]).output.contains("sent 1, retrying 0, dead letters 0"))
        let keyless = try await keyed.run(["domain", "links", "put", "--body", #"{"title": "no url"}"#])
        #expect(keyless.status == 64 && keyless.error.contains("has no url"), "\(keyless.error)")

        let noAuth = try FerryExecutable.configured("server: \(server.baseURL)\ndomains:\n  bookmarks: {}\n")
        let refused = try await noAuth.run(["config", "check"])
        #expect(refused.status == 78 && refused.error.contains("add `auth: {}` under plugins"), "\(refused.error)")
        let wrong = try FerryExecutable.configured(
            "server: \(server.baseURL)\ndomains:\n  notes:\n    operations:\n      put: {method: PUT, path: \"/v1/notes/{id}\"}\n"
        )
        let placeholder = try await wrong.run(["config", "check"])
        #expect(placeholder.status == 78 && placeholder.error.contains("has {id}; the only placeholder is {entity}"))
        await server.stop()
    }
}
