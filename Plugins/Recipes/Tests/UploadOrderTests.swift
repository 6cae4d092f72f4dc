import FerryServer
import Foundation
import RecipesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Recipes: a recipe the user adds is uploaded before it is saved")
struct UploadOrderTests {
    @Test func theSaveWaitsBehindTheUploadUntilTheUploadSucceeds() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login()
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            let file = try bed.file("soup.json", Data(#"{"title": "Soup", "servings": 4, "steps": ["boil"]}"#.utf8))
            let photo = try bed.file("soup.png", samplePNG(3))
            let recipe = try await book.add(documentAt: file, photoAt: photo)
            #expect(try await bed.queue() == ["upload:\(recipe.id)", "save:\(recipe.id)"])
            #expect(try await book.list(savedOnly: true).recipes.map(\.id) == [recipe.id])

            // The upload fails once (a 500): the save must not overtake it.
            server.server.setFaults(
                FaultSettings(failNext: .init(kind: .internalError, count: 1), pathPrefix: "/v1/recipes/")
            )
            try await server.resetStats()
            let first = try await bed.test.runOnce()
            #expect(first.retried == 1 && first.sent == 0)
            #expect(try await server.count("saved-recipes/{id}") == 0)
            #expect(try await server.savedIDs(token: token).contains(recipe.id) == false)

            bed.test.clock.advance(by: 3600)
            let second = try await bed.test.runOnce()
            #expect(second.sent == 2)
            let remote = try #require(try await server.recipe(recipe.id, token: token))
            #expect(remote["title"] as? String == "Soup")
            #expect((remote["photo"] as? [String: Any])?["sha256"] as? String == SHA256Hasher.hex(samplePNG(3)))
            #expect(try await server.savedIDs(token: token).contains(recipe.id))
            let item = try #require(try await book.list().recipes.first { $0.id == recipe.id })
            #expect(item.onServer && item.mine && item.pending.isEmpty)
        }
    }

    @Test func aRecipeThatAlreadyExistsOnTheServerIsAdoptedAndStillSaved() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login("sam", "sam-password")
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let file = try bed.file("copy.json", Data(#"{"id": "demo-dal", "title": "My dal"}"#.utf8))
            _ = try await bed.book.add(documentAt: file)
            let summary = try await bed.test.runOnce()
            #expect(summary.conflicts == 1 && summary.sent == 1)
            #expect(try await server.savedIDs(token: token) == ["demo-dal"])
            let shown = try await bed.book.show("demo-dal")
            #expect(shown.recipe.title != "My dal")  // the server's recipe stands
            #expect(shown.recipe.version != nil)
        }
    }

    @Test func badRecipeFilesAreRefusedWithAReasonAndNothingIsStored() async throws {
        let bed = try await RecipesTestbed.make(server: "http://127.0.0.1:9", token: "t")
        defer { bed.remove() }
        let cases: [(String, Data, String)] = [
            ("notjson.json", Data("{title".utf8), "not valid JSON"),
            ("list.json", Data("[1, 2]".utf8), "not an object"),
            ("untitled.json", Data(#"{"servings": 2}"#.utf8), "no title"),
            ("blank.json", Data(#"{"title": "  "}"#.utf8), "no title"),
            ("badid.json", Data(#"{"title": "x", "id": "../x"}"#.utf8), "not a valid recipe id"),
        ]
        for (name, contents, reason) in cases {
            let path = try bed.file(name, contents)
            let error = await #expect(throws: FerryError.self) { try await bed.book.add(documentAt: path) }
            #expect(error?.code == .usage)
            #expect(error?.message.contains(reason) == true, "\(name): \(error?.message ?? "")")
        }
        let good = try bed.file("good.json", Data(#"{"title": "Good"}"#.utf8))
        let notImage = try bed.file("photo.png", Data("hello".utf8))
        let error = await #expect(throws: FerryError.self) {
            try await bed.book.add(documentAt: good, photoAt: notImage)
        }
        #expect(error?.message.contains("not a PNG") == true)
        let missing = await #expect(throws: FerryError.self) {
            try await bed.book.add(documentAt: bed.folder.path + "/nope.json")
        }
        #expect(missing?.message.contains("no recipe file") == true)
        #expect(try await bed.test.operations().isEmpty)
        #expect(try await bed.book.list().recipes.isEmpty)
    }
}
