import Foundation
import RecipesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Recipes: one-time import of an older layout")
struct LegacyImportTests {
    static let soupID = "7F1C3B2A-0D4E-4F6A-9B8C-1D2E3F4A5B6C"

    /// The seed app's layout: a JSON list of saved ids, created ids, and recipe files with a photo.
    static func legacyFolder(in bed: RecipesTestbed) throws -> String {
        _ = try bed.file(
            "legacy/saved_recipe_ids_v2.json",
            Data(#"["\#(soupID)", "demo-dal", "demo-pancakes", "bad/id", "demo-dal"]"#.utf8)
        )
        _ = try bed.file("legacy/created_recipe_ids_v2.json", Data(#"["\#(soupID)"]"#.utf8))
        _ = try bed.file(
            "legacy/recipes/\(soupID).json",
            Data(
                #"{"id": "\#(soupID)", "name": "Grandma's soup", "ingredients": ["water", "love"], "createdAt": 7.5e8}"#
                    .utf8
            )
        )
        _ = try bed.file("legacy/recipes/\(soupID).png", samplePNG(5))
        return bed.folder.appendingPathComponent("legacy").path
    }

    @Test func importingTwiceChangesNothingTheSecondTime() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login()
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            let folder = try Self.legacyFolder(in: bed)

            let first = try await book.importLegacy(from: folder)
            #expect(first.imported == 3 && first.alreadyImported == 0)
            #expect(first.documents == 1 && first.photos == 1 && first.savesQueued == 3)
            #expect(first.problems.count == 1 && first.problems[0].contains("bad/id"))
            let queue = try await bed.queue()
            #expect(queue == ["upload:\(Self.soupID)", "save:\(Self.soupID)", "save:demo-dal", "save:demo-pancakes"])
            let listing = try await book.list()

            let second = try await book.importLegacy(from: folder)
            #expect(second.imported == 0 && second.alreadyImported == 3 && second.savesQueued == 0)
            #expect(try await bed.queue() == queue)
            #expect(try await book.list().recipes == listing.recipes)

            _ = try await bed.test.runOnce()
            let remote = try #require(try await server.recipe(Self.soupID, token: token))
            #expect(remote["title"] as? String == "Grandma's soup")
            #expect((remote["photo"] as? [String: Any])?["sha256"] as? String == SHA256Hasher.hex(samplePNG(5)))
            #expect(
                try await server.savedIDs(token: token) == ["demo-shakshuka", "demo-dal", "demo-pancakes", Self.soupID]
            )

            // Unsaved since: a third run still leaves it alone.
            try await book.unsave("demo-pancakes")
            let third = try await book.importLegacy(from: folder)
            #expect(third.imported == 0 && third.savesQueued == 0)
            #expect(try await book.list(savedOnly: true).recipes.contains { $0.id == "demo-pancakes" } == false)
        }
    }

    @Test func aBrokenLayoutIsRefusedWithWhatToFix() async throws {
        let bed = try await RecipesTestbed.make(server: "http://127.0.0.1:9", token: "t")
        defer { bed.remove() }
        let book = try bed.book
        let missing = await #expect(throws: FerryError.self) {
            try await book.importLegacy(from: bed.folder.path + "/none")
        }
        #expect(missing?.message.contains("not a folder") == true)
        _ = try bed.file("empty/readme.txt", Data())
        let noList = await #expect(throws: FerryError.self) {
            try await book.importLegacy(from: bed.folder.path + "/empty")
        }
        #expect(noList?.message.contains("saved_recipe_ids.json") == true)
        _ = try bed.file("bad/saved_recipe_ids.json", Data(#"{"ids": 1}"#.utf8))
        let notList = await #expect(throws: FerryError.self) {
            try await book.importLegacy(from: bed.folder.path + "/bad")
        }
        #expect(notList?.message.contains("not a JSON list") == true)
        #expect(try await bed.test.operations().isEmpty)
    }

    @Test func aBrokenRecipeFileIsReportedAndTakenOnceFixed() async throws {
        let bed = try await RecipesTestbed.make(server: "http://127.0.0.1:9", token: "t")
        defer { bed.remove() }
        let book = try bed.book
        _ = try bed.file("legacy/saved_recipe_ids.json", Data(#"["soup-1"]"#.utf8))
        let recipe = try bed.file("legacy/recipes/soup-1.json", Data("{ broken".utf8))
        let folder = bed.folder.appendingPathComponent("legacy").path
        let first = try await book.importLegacy(from: folder)
        #expect(first.imported == 0 && first.problems.count == 1)
        #expect(try await bed.test.operations().isEmpty)
        try Data(#"{"title": "Soup"}"#.utf8).write(to: URL(fileURLWithPath: recipe))
        let second = try await book.importLegacy(from: folder)
        #expect(second.imported == 1 && second.documents == 1)
        #expect(try await bed.queue() == ["upload:soup-1", "save:soup-1"])
    }
}
