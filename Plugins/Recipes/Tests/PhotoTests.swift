import Foundation
import RecipesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Recipes: photos beside saved recipes")
struct PhotoTests {
    @Test func aSavedRecipesPhotoIsFetchedVerifiedAndRemovedOnUnsave() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login("sam", "sam-password")
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            try await book.refresh()
            try await book.save("demo-shakshuka")
            _ = try await bed.test.runOnce()  // sends the save, pulls, fetches the photo

            let remote = try #require(try await server.recipe("demo-shakshuka", token: token))
            let expected = try #require((remote["photo"] as? [String: Any])?["sha256"] as? String)
            let shown = try await book.show("demo-shakshuka")
            let path = try #require(shown.photoPath)
            #expect(path.hasPrefix(bed.photos.path))
            #expect(SHA256Hasher.hex(try Data(contentsOf: URL(fileURLWithPath: path))) == expected)

            try await book.unsave("demo-shakshuka")
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(try await book.show("demo-shakshuka").photoPath == nil)

            // Recipes that are not saved get no photo.
            _ = try await bed.test.runOnce()
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }

    @Test func thePhotoOfARecipeTheUserCreatedStaysWhenItIsUnsaved() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login()
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            let recipe = try await book.add(
                documentAt: try bed.file("cake.json", Data(#"{"title": "Cake"}"#.utf8)),
                photoAt: try bed.file("cake.png", samplePNG(9))
            )
            let path = try #require(try await book.show(recipe.id).photoPath)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == samplePNG(9))
            _ = try await bed.test.runOnce()
            try await book.unsave(recipe.id)
            _ = try await bed.test.runOnce()
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(try await book.show(recipe.id).photoPath == path)
            #expect(try await server.savedIDs(token: token).contains(recipe.id) == false)
        }
    }

    @Test func photoDownloadsCanBeTurnedOffAndUnknownKeysAreRefused() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login("sam", "sam-password")
            let bed = try await RecipesTestbed.make(server: server.url, token: token, yaml: "download_photos: false")
            defer { bed.remove() }
            try await bed.book.refresh()
            try await bed.book.save("demo-shakshuka")
            _ = try await bed.test.runOnce()
            #expect(try await bed.book.show("demo-shakshuka").photoPath == nil)
            #expect(try await server.count("/photo") == 0)

            let error = await #expect(throws: FerryError.self) {
                _ = try await RecipesTestbed.make(server: server.url, token: token, yaml: "downlod_photos: true")
            }
            #expect(error?.code == .configuration)
            #expect(error?.message.contains("downlod_photos") == true)
        }
    }
}
