import Foundation
import Testing

@Suite("Recipes, photos and the saved set")
struct RecipeTests {
    @Test func putCreatesThenUpdatesWithVersions() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let created = try await server.request(
            .PUT,
            "/v1/recipes/my-soup",
            json: ["title": "Soup", "servings": 2],
            token: token
        )
        #expect(created.status == 201)
        #expect(created.header("ETag") == "\"1\"")
        #expect(created.object["version"] as? Int == 1)
        #expect(created.object["owner_id"] as? String == "u_demo")
        let updated = try await server.request(
            .PUT,
            "/v1/recipes/my-soup",
            json: ["title": "Better soup"],
            token: token,
            headers: ["If-Match": "\"1\""]
        )
        #expect(updated.status == 200)
        #expect(updated.object["version"] as? Int == 2)
        let stale = try await server.request(
            .PUT,
            "/v1/recipes/my-soup",
            json: ["title": "Stale"],
            token: token,
            headers: ["If-Match": "\"1\""]
        )
        #expect(stale.status == 412)
        #expect(stale.errorCode == "version_mismatch")
        #expect((stale.errorDetails["current"] as? [String: Any])?["title"] as? String == "Better soup")
        let got = try await server.request(.GET, "/v1/recipes/my-soup", token: token)
        #expect(got.object["title"] as? String == "Better soup")
        #expect(got.header("ETag") == "\"2\"")
        let list = try await server.request(.GET, "/v1/recipes", token: token)
        #expect((list.object["recipes"] as? [Any])?.count == 4)
        await server.stop()
    }

    @Test func createOnlyPutOfAnExistingRecipeIs409WithTheCurrentOne() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let response = try await server.request(
            .PUT,
            "/v1/recipes/demo-dal",
            json: ["title": "Other dal"],
            token: token,
            headers: ["If-None-Match": "*"]
        )
        #expect(response.status == 409)
        #expect(response.errorCode == "recipe_exists")
        #expect((response.errorDetails["current"] as? [String: Any])?["title"] as? String == "Red lentil dal")
        await server.stop()
    }

    @Test func onlyTheOwnerMayReplaceARecipe() async throws {
        let server = try await TestServer.start()
        let sam = try await server.login("sam", "sam-password")
        let response = try await server.request(.PUT, "/v1/recipes/demo-dal", json: ["title": "Mine now"], token: sam)
        #expect(response.status == 403)
        #expect(response.errorCode == "forbidden")
        await server.stop()
    }

    @Test func missingRecipeIs404AndBadBodiesAre400() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        #expect(try await server.request(.GET, "/v1/recipes/nope", token: token).errorCode == "recipe_not_found")
        let noTitle = try await server.request(.PUT, "/v1/recipes/x1", json: ["servings": 2], token: token)
        #expect(noTitle.status == 400)
        #expect(noTitle.errorCode == "invalid_field")
        let wrongType = try await server.request(.PUT, "/v1/recipes/x1", json: ["title": 42], token: token)
        #expect(wrongType.status == 400)
        let mismatch = try await server.request(.PUT, "/v1/recipes/x1", json: ["title": "T", "id": "x2"], token: token)
        #expect(mismatch.errorCode == "id_mismatch")
        await server.stop()
    }

    @Test func photosRoundTrip() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3, 4, 5])
        let put = try await server.request(
            .PUT,
            "/v1/recipes/demo-pancakes/photo",
            body: bytes,
            token: token,
            headers: ["Content-Type": "image/png"]
        )
        #expect(put.status == 200)
        #expect((put.object["photo"] as? [String: Any])?["byte_size"] as? Int == bytes.count)
        let get = try await server.request(.GET, "/v1/recipes/demo-pancakes/photo", token: token)
        #expect(get.status == 200)
        #expect(get.body == bytes)
        #expect(get.header("Content-Type") == "image/png")
        let notImage = try await server.request(
            .PUT,
            "/v1/recipes/demo-pancakes/photo",
            body: bytes,
            token: token,
            headers: ["Content-Type": "text/plain"]
        )
        #expect(notImage.status == 415)
        #expect(notImage.errorCode == "unsupported_media_type")
        #expect(
            try await server.request(.GET, "/v1/recipes/demo-dal/photo", token: token).errorCode == "photo_not_found"
        )
        await server.stop()
    }

    @Test func saveAndUnsaveAreIdempotent() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let initial = try await server.request(.GET, "/v1/saved-recipes", token: token)
        #expect((initial.object["saved_recipes"] as? [Any])?.count == 2)
        #expect(try await server.request(.PUT, "/v1/saved-recipes/demo-pancakes", token: token).status == 201)
        #expect(try await server.request(.PUT, "/v1/saved-recipes/demo-pancakes", token: token).status == 200)
        #expect(try await server.request(.DELETE, "/v1/saved-recipes/demo-pancakes", token: token).status == 204)
        #expect(try await server.request(.DELETE, "/v1/saved-recipes/demo-pancakes", token: token).status == 204)
        #expect(try await server.request(.DELETE, "/v1/saved-recipes/never-saved", token: token).status == 204)
        let missing = try await server.request(.PUT, "/v1/saved-recipes/no-such-recipe", token: token)
        #expect(missing.status == 404)
        #expect(missing.errorCode == "recipe_not_found")
        await server.stop()
    }

    @Test func changesFeedsIncludeDeletions() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let start = try await server.request(.GET, "/v1/saved-recipes/changes", token: token)
        #expect((start.object["changes"] as? [Any])?.count == 2)
        let cursor = try #require(start.object["cursor"] as? String)
        _ = try await server.request(.DELETE, "/v1/saved-recipes/demo-dal", token: token)
        let next = try await server.request(.GET, "/v1/saved-recipes/changes?since=\(cursor)", token: token)
        let changes = try #require(next.object["changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(changes.first?["type"] as? String == "delete")
        #expect(changes.first?["id"] as? String == "demo-dal")
        let paged = try await server.request(.GET, "/v1/recipes/changes?limit=2", token: token)
        #expect((paged.object["changes"] as? [Any])?.count == 2)
        #expect(paged.object["has_more"] as? Bool == true)
        let rest = try await server.request(
            .GET,
            "/v1/recipes/changes?limit=2&since=\(paged.object["cursor"] as? String ?? "")",
            token: token
        )
        #expect((rest.object["changes"] as? [Any])?.count == 1)
        #expect(rest.object["has_more"] as? Bool == false)
        let bad = try await server.request(.GET, "/v1/recipes/changes?since=abc", token: token)
        #expect(bad.status == 400)
        #expect(bad.errorCode == "invalid_cursor")
        await server.stop()
    }
}
