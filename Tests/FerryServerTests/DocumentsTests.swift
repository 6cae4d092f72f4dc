import Foundation
import NIOHTTP1
import Testing

@Suite("Generic documents of any domain")
struct DocumentsTests {
    @Test func createReplacePatchGetAndDeleteWithETags() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let path = "/v1/domains/notes/documents/n1"
        let created = try await server.request(
            .PUT,
            path,
            json: ["title": "Groceries", "tags": ["home"], "version": 99, "created_at": "x"],
            token: token
        )
        #expect(created.status == 201)
        #expect(created.header("Location") == path)
        #expect(created.header("ETag") == "\"1\"")
        #expect(created.object["id"] as? String == "n1")
        #expect(created.object["version"] as? Int == 1)
        #expect(created.object["title"] as? String == "Groceries")
        let createdAt = try #require(created.object["created_at"] as? String)
        #expect(createdAt.hasSuffix("Z") && createdAt.contains("."))
        #expect(created.object["updated_at"] as? String == createdAt)

        server.clock.advance(by: 5)
        let replaced = try await server.request(
            .PUT,
            path,
            json: ["id": "n1", "title": "Groceries", "body": ["lines": ["milk"], "pinned": true]],
            token: token,
            headers: ["If-Match": "\"1\""]
        )
        #expect(replaced.status == 200)
        #expect(replaced.header("Location") == nil)
        #expect(replaced.header("ETag") == "\"2\"")
        #expect(replaced.object["tags"] == nil)
        #expect(replaced.object["created_at"] as? String == createdAt)
        #expect(replaced.object["updated_at"] as? String != createdAt)

        let patched = try await server.request(
            .PATCH,
            path,
            json: ["title": "Shopping", "body": ["pinned": NSNull(), "colour": "red"], "due": "2026-01-01"],
            token: token,
            headers: ["If-Match": "W/\"2\"", "Content-Type": "application/merge-patch+json"]
        )
        #expect(patched.status == 200)
        #expect(patched.header("ETag") == "\"3\"")
        #expect(patched.object["title"] as? String == "Shopping")
        #expect(patched.object["due"] as? String == "2026-01-01")
        let body = try #require(patched.object["body"] as? [String: Any])
        #expect(body["lines"] as? [String] == ["milk"])
        #expect(body["colour"] as? String == "red")
        #expect(body["pinned"] == nil)

        let removed = try await server.request(.PATCH, path, json: ["due": NSNull()], token: token)
        #expect(removed.object["due"] == nil)
        #expect(removed.object["version"] as? Int == 4)

        let got = try await server.request(.GET, path, token: token)
        #expect(got.status == 200)
        #expect(got.header("ETag") == "\"4\"")
        #expect(got.object["title"] as? String == "Shopping")
        #expect(got.object["created_at"] as? String == createdAt)

        let deleted = try await server.request(.DELETE, path, token: token, headers: ["If-Match": "\"4\""])
        #expect(deleted.status == 204)
        let gone = try await server.request(.GET, path, token: token)
        #expect(gone.status == 404)
        #expect(gone.errorCode == "document_not_found")
        #expect(gone.hasErrorShape)
        #expect(try await server.request(.DELETE, path, token: token).errorCode == "document_not_found")
        // A patch of the deleted document meets the deletion: a conflict, never a create.
        let patchGone = try await server.request(.PATCH, path, json: ["title": "x"], token: token)
        #expect(patchGone.status == 412)
        #expect(patchGone.errorCode == "document_deleted")
        #expect(patchGone.errorDetails["current"] is NSNull)
        let patchNever = try await server.request(.PATCH, path + "-never", json: ["title": "x"], token: token)
        #expect(patchNever.status == 404)
        #expect(patchNever.errorCode == "document_not_found")

        // Created again, it continues the count: a version is never reused.
        let again = try await server.request(.PUT, path, json: ["title": "Again"], token: token)
        #expect(again.status == 201)
        #expect(again.object["version"] as? Int == 6)
        await server.stop()
    }

    @Test func aWriteThatChangesNothingKeepsTheVersion() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let path = "/v1/domains/notes/documents/same"
        _ = try await server.request(.PUT, path, json: ["title": "T", "n": 1], token: token)
        let same = try await server.request(.PUT, path, json: ["n": 1, "title": "T"], token: token)
        #expect(same.status == 200)
        #expect(same.object["version"] as? Int == 1)
        let emptyPatch = try await server.request(.PATCH, path, json: [String: Any](), token: token)
        #expect(emptyPatch.status == 200)
        #expect(emptyPatch.header("ETag") == "\"1\"")
        let feed = try await server.request(.GET, "/v1/domains/notes/changes", token: token)
        #expect((feed.object["changes"] as? [Any])?.count == 1)
        await server.stop()
    }

    @Test func createOnlyPutOfAnExistingDocumentIs409WithTheCurrentOne() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let path = "/v1/domains/notes/documents/once"
        let first = try await server.request(
            .PUT,
            path,
            json: ["title": "First"],
            token: token,
            headers: ["If-None-Match": "*"]
        )
        #expect(first.status == 201)
        let second = try await server.request(
            .PUT,
            path,
            json: ["title": "Second"],
            token: token,
            headers: ["If-None-Match": "*"]
        )
        #expect(second.status == 409)
        #expect(second.errorCode == "document_exists")
        let current = try #require(second.errorDetails["current"] as? [String: Any])
        #expect(current["title"] as? String == "First")
        #expect(current["version"] as? Int == 1)
        await server.stop()
    }

    @Test func staleIfMatchIs412WithTheCurrentDocumentOrNullAfterADelete() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let path = "/v1/shared/board/documents/card-1"
        _ = try await server.request(.PUT, path, json: ["text": "one"], token: token)
        _ = try await server.request(.PUT, path, json: ["text": "two"], token: token)
        for method: HTTPMethod in [.PUT, .PATCH, .DELETE] {
            let stale = try await server.request(
                method,
                path,
                json: method == .DELETE ? nil : ["text": "stale"],
                token: token,
                headers: ["If-Match": "\"1\""]
            )
            #expect(stale.status == 412)
            #expect(stale.errorCode == "version_mismatch")
            #expect((stale.errorDetails["current"] as? [String: Any])?["text"] as? String == "two")
            #expect(stale.errorDetails["expected_version"] as? Int == 1)
        }
        let badIfMatch = try await server.request(
            .PATCH,
            path,
            json: ["text": "x"],
            token: token,
            headers: ["If-Match": "soon"]
        )
        #expect(badIfMatch.errorCode == "invalid_if_match")
        #expect(try await server.request(.DELETE, path, token: token).status == 204)
        for method: HTTPMethod in [.PUT, .PATCH, .DELETE] {
            let afterDelete = try await server.request(
                method,
                path,
                json: method == .DELETE ? nil : ["text": "late"],
                token: token,
                headers: ["If-Match": "\"2\""]
            )
            #expect(afterDelete.status == 412)
            #expect(afterDelete.errorDetails.keys.contains("current"))
            #expect(afterDelete.errorDetails["current"] is NSNull)
        }
        let star = try await server.request(
            .PUT,
            path,
            json: ["text": "x"],
            token: token,
            headers: ["If-Match": "*"]
        )
        #expect(star.status == 412)
        #expect(star.errorDetails["current"] is NSNull)
        await server.stop()
    }

    @Test func ownDocumentsArePerUserAndSharedOnesAreShared() async throws {
        let server = try await TestServer.start()
        let demo = try await server.login()
        let sam = try await server.login("sam", "sam-password")
        let own = "/v1/domains/notes/documents/n1"
        #expect(try await server.request(.PUT, own, json: ["by": "demo"], token: demo).status == 201)
        #expect(try await server.request(.GET, own, token: sam).status == 404)
        #expect(try await server.request(.PUT, own, json: ["by": "sam"], token: sam).status == 201)
        #expect(try await server.request(.GET, own, token: demo).object["by"] as? String == "demo")
        #expect(try await server.request(.GET, own, token: sam).object["by"] as? String == "sam")
        let samFeed = try await server.request(.GET, "/v1/domains/notes/changes", token: sam)
        let samChanges = try #require(samFeed.object["changes"] as? [[String: Any]])
        #expect(samChanges.count == 1)
        #expect((samChanges.first?["entity"] as? [String: Any])?["by"] as? String == "sam")

        let shared = "/v1/shared/notes/documents/n1"
        #expect(try await server.request(.GET, shared, token: demo).status == 404)
        #expect(try await server.request(.PUT, shared, json: ["by": "demo"], token: demo).status == 201)
        let seenBySam = try await server.request(.GET, shared, token: sam)
        #expect(seenBySam.object["by"] as? String == "demo")
        let samPatch = try await server.request(
            .PATCH,
            shared,
            json: ["by": "sam"],
            token: sam,
            headers: ["If-Match": "\"1\""]
        )
        #expect(samPatch.status == 200)
        #expect(try await server.request(.GET, shared, token: demo).object["by"] as? String == "sam")
        let sharedFeed = try await server.request(.GET, "/v1/shared/notes/changes", token: demo)
        #expect((sharedFeed.object["changes"] as? [Any])?.count == 1)

        #expect(try await server.request(.GET, shared).status == 401)
        #expect(try await server.request(.PUT, own, json: ["x": 1]).status == 401)
        #expect(try await server.request(.GET, "/v1/shared/notes/changes").status == 401)
        await server.stop()
    }

    @Test func theChangesFeedPagesWithACursorAndKeepsTombstones() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let never = try await server.request(.GET, "/v1/domains/never-written/changes", token: token)
        #expect(never.status == 200)
        #expect((never.object["changes"] as? [Any])?.isEmpty == true)
        #expect(never.object["has_more"] as? Bool == false)
        #expect(try await server.request(.GET, "/v1/shared/never-written/changes", token: token).status == 200)

        for id in ["a", "b", "c"] {
            _ = try await server.request(.PUT, "/v1/domains/todo/documents/\(id)", json: ["t": id], token: token)
        }
        _ = try await server.request(.PUT, "/v1/domains/other/documents/z", json: ["t": "z"], token: token)
        let first = try await server.request(.GET, "/v1/domains/todo/changes?limit=2", token: token)
        #expect(first.status == 200)
        #expect((first.object["changes"] as? [[String: Any]])?.map { $0["id"] as? String } == ["a", "b"])
        #expect(first.object["has_more"] as? Bool == true)
        let cursor = try #require(first.object["cursor"] as? String)
        let second = try await server.request(.GET, "/v1/domains/todo/changes?since=\(cursor)&limit=2", token: token)
        let page = try #require(second.object["changes"] as? [[String: Any]])
        #expect(page.map { $0["id"] as? String } == ["c"])
        #expect(page.first?["type"] as? String == "upsert")
        #expect((page.first?["entity"] as? [String: Any])?["version"] as? Int == 1)
        #expect(page.first?["collection"] == nil)
        #expect(second.object["has_more"] as? Bool == false)
        let cursor2 = try #require(second.object["cursor"] as? String)

        _ = try await server.request(.DELETE, "/v1/domains/todo/documents/a", token: token)
        _ = try await server.request(.PATCH, "/v1/domains/todo/documents/b", json: ["t": "B"], token: token)
        let third = try await server.request(.GET, "/v1/domains/todo/changes?since=\(cursor2)", token: token)
        let latest = try #require(third.object["changes"] as? [[String: Any]])
        #expect(latest.count == 2)
        #expect(latest[0]["type"] as? String == "delete")
        #expect(latest[0]["id"] as? String == "a")
        #expect(latest[0]["entity"] == nil)
        #expect((latest[1]["entity"] as? [String: Any])?["t"] as? String == "B")
        let all = try await server.request(.GET, "/v1/domains/todo/changes", token: token)
        let everything = try #require(all.object["changes"] as? [[String: Any]])
        #expect(everything.map { $0["id"] as? String } == ["c", "a", "b"])

        #expect(
            try await server.request(.GET, "/v1/domains/todo/changes?since=nope", token: token).errorCode
                == "invalid_cursor"
        )
        #expect(
            try await server.request(.GET, "/v1/domains/todo/changes?limit=0", token: token).errorCode
                == "invalid_limit"
        )
        await server.stop()
    }

    @Test func invalidDomainsIdsAndBodiesAre400() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let longest = String(repeating: "d", count: 64)
        #expect(
            try await server.request(.PUT, "/v1/domains/\(longest)/documents/x", json: ["a": 1], token: token).status
                == 201
        )
        let changes = try await server.request(.PUT, "/v1/domains/0-a_b/documents/changes", json: [:], token: token)
        #expect(changes.status == 201)
        let head = try await server.request(.HEAD, "/v1/domains/0-a_b/documents/changes", token: token)
        #expect(head.status == 200)
        #expect(head.header("ETag") == "\"1\"")
        let badDomains = ["Notes", "_notes", "-notes", "no.dots", "sp%20ace", "caf%C3%A9", longest + "d"]
        for domain in badDomains {
            for path in ["/v1/domains/\(domain)/documents/x", "/v1/shared/\(domain)/documents/x"] {
                let response = try await server.request(.PUT, path, json: ["a": 1], token: token)
                #expect(response.status == 400, "\(path)")
                #expect(response.errorCode == "invalid_domain", "\(path)")
            }
            let feed = try await server.request(.GET, "/v1/domains/\(domain)/changes", token: token)
            #expect(feed.errorCode == "invalid_domain")
        }
        for id in ["-x", "a..b", "with%20space", String(repeating: "i", count: 129)] {
            let response = try await server.request(.PUT, "/v1/domains/notes/documents/\(id)", json: [:], token: token)
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_id")
            #expect(try await server.request(.GET, "/v1/shared/notes/documents/\(id)", token: token).status == 400)
        }
        let path = "/v1/domains/notes/documents/n1"
        for body in [[1, 2] as Any, "text", 3, NSNull()] {
            let response = try await server.request(.PUT, path, json: body, token: token)
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_body")
        }
        _ = try await server.request(.PUT, path, json: ["a": 1], token: token)
        let arrayPatch = try await server.request(.PATCH, path, json: [["op": "add"]], token: token)
        #expect(arrayPatch.errorCode == "invalid_body")
        #expect(try await server.request(.PUT, path, body: Data("{".utf8), token: token).errorCode == "malformed_json")
        #expect(try await server.request(.PUT, path, token: token).errorCode == "missing_body")
        let mismatch = try await server.request(.PUT, path, json: ["id": "n2", "a": 1], token: token)
        #expect(mismatch.errorCode == "id_mismatch")
        let patchMismatch = try await server.request(.PATCH, path, json: ["id": "n2"], token: token)
        #expect(patchMismatch.errorCode == "id_mismatch")
        #expect(try await server.request(.GET, path, token: token).object["a"] as? Int == 1)
        await server.stop()
    }

    @Test func aPatchMayNotGrowADocumentBeyondTheBodyCap() async throws {
        let server = try await TestServer.start { $0.maxBodyBytes = 400 }
        let token = try await server.login()
        let path = "/v1/domains/notes/documents/big"
        let chunk = String(repeating: "x", count: 150)
        #expect(try await server.request(.PUT, path, json: ["a": chunk], token: token).status == 201)
        #expect(try await server.request(.PATCH, path, json: ["b": chunk], token: token).status == 200)
        let tooBig = try await server.request(.PATCH, path, json: ["c": chunk], token: token)
        #expect(tooBig.status == 413)
        #expect(tooBig.errorCode == "payload_too_large")
        #expect(tooBig.errorDetails["limit"] as? Int == 400)
        #expect(try await server.request(.GET, path, token: token).object["c"] == nil)
        await server.stop()
    }

    @Test func batchedPutsWithIdempotencyKeysAreReplayed() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let requests: [[String: Any]] = [
            [
                "method": "PUT", "path": "/v1/domains/habits/documents/h1",
                "headers": ["Idempotency-Key": "doc-op-1"], "body": ["name": "Run"],
            ],
            [
                "method": "PUT", "path": "/v1/shared/habits/documents/h2",
                "headers": ["Idempotency-Key": "doc-op-2", "If-None-Match": "*"], "body": ["name": "Read"],
            ],
            [
                "method": "PATCH", "path": "/v1/domains/habits/documents/h1",
                "headers": ["Idempotency-Key": "doc-op-3", "If-Match": "\"1\""], "body": ["streak": 3],
            ],
            ["method": "GET", "path": "/v1/domains/habits/changes?limit=10"],
        ]
        let first = try await server.request(.POST, "/v1/batch", json: ["requests": requests], token: token)
        #expect(first.status == 200)
        let answers = try #require(first.object["responses"] as? [[String: Any]])
        #expect(answers.map { $0["status"] as? Int } == [201, 201, 200, 200])
        #expect((answers[2]["headers"] as? [String: String])?["ETag"] == "\"2\"")
        #expect(((answers[3]["body"] as? [String: Any])?["changes"] as? [Any])?.count == 1)

        // The same batch again: every write is replayed, nothing changes twice.
        let again = try await server.request(.POST, "/v1/batch", json: ["requests": requests], token: token)
        let replayed = try #require(again.object["responses"] as? [[String: Any]])
        #expect(replayed.map { $0["status"] as? Int } == [201, 201, 200, 200])
        for index in 0..<3 {
            #expect((replayed[index]["headers"] as? [String: String])?["Idempotent-Replayed"] == "true")
            #expect(
                (replayed[index]["body"] as? [String: Any])?["version"] as? Int
                    == (answers[index]["body"] as? [String: Any])?["version"] as? Int
            )
        }
        let h1 = try await server.request(.GET, "/v1/domains/habits/documents/h1", token: token)
        #expect(h1.header("ETag") == "\"2\"")
        #expect(h1.object["streak"] as? Int == 3)

        // Alone, outside a batch, the key replays too.
        let alone = try await server.request(
            .PUT,
            "/v1/shared/habits/documents/h2",
            json: ["name": "Read"],
            token: token,
            headers: ["Idempotency-Key": "doc-op-2", "If-None-Match": "*"]
        )
        #expect(alone.status == 201)
        #expect(alone.header("Idempotent-Replayed") == "true")
        let reused = try await server.request(
            .PUT,
            "/v1/shared/habits/documents/h2",
            json: ["name": "Write"],
            token: token,
            headers: ["Idempotency-Key": "doc-op-2"]
        )
        #expect(reused.status == 422)
        await server.stop()
    }

    @Test func domainsNamedLikeBuiltInCollectionsStayApartFromThem() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let movies = try await server.request(.GET, "/v1/movies", token: token)
        let movieCount = (movies.object["movies"] as? [Any])?.count
        let recipes = try await server.request(.GET, "/v1/recipes", token: token)
        let recipeCount = (recipes.object["recipes"] as? [Any])?.count

        // A document with a built-in entity's id, in domains named like built-in collections.
        for space in ["/v1/domains", "/v1/shared"] {
            for (domain, id) in [("movies", "m_demo_heat"), ("recipes", "demo-dal"), ("movies", "doc-only")] {
                let put = try await server.request(
                    .PUT,
                    "\(space)/\(domain)/documents/\(id)",
                    json: ["title": "A document"],
                    token: token
                )
                #expect(put.status == 201)
                #expect(put.object["version"] as? Int == 1)
            }
        }
        let moviesAfter = try await server.request(.GET, "/v1/movies", token: token)
        #expect((moviesAfter.object["movies"] as? [Any])?.count == movieCount)
        let heat = try await server.request(.GET, "/v1/movies/m_demo_heat", token: token)
        #expect(heat.object["title"] as? String == "Heat")
        #expect(try await server.request(.GET, "/v1/movies/doc-only", token: token).status == 404)
        let recipesAfter = try await server.request(.GET, "/v1/recipes", token: token)
        #expect((recipesAfter.object["recipes"] as? [Any])?.count == recipeCount)
        let dal = try await server.request(.GET, "/v1/recipes/demo-dal", token: token)
        #expect(dal.object["title"] as? String == "Red lentil dal")
        let movieFeed = try await server.request(.GET, "/v1/movies/changes", token: token)
        let movieIDs = (movieFeed.object["changes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(!movieIDs.contains("doc-only"))
        #expect(movieIDs.filter { $0 == "m_demo_heat" }.count == 1)
        let recipeFeed = try await server.request(.GET, "/v1/recipes/changes", token: token)
        let recipeEntities = (recipeFeed.object["changes"] as? [[String: Any]] ?? []).compactMap {
            $0["entity"] as? [String: Any]
        }
        #expect(!recipeEntities.contains { $0["title"] as? String == "A document" })

        // And the other way round: the built-in entities are not documents.
        #expect(try await server.request(.GET, "/v1/domains/movies/documents/m_demo_dune", token: token).status == 404)
        #expect(
            try await server.request(.GET, "/v1/shared/recipes/documents/demo-pancakes", token: token).status == 404
        )
        let docFeed = try await server.request(.GET, "/v1/domains/movies/changes", token: token)
        #expect(
            (docFeed.object["changes"] as? [[String: Any]])?.map { $0["id"] as? String } == ["m_demo_heat", "doc-only"]
        )
        let sharedRecipes = try await server.request(.GET, "/v1/shared/recipes/changes", token: token)
        #expect((sharedRecipes.object["changes"] as? [[String: Any]])?.map { $0["id"] as? String } == ["demo-dal"])
        await server.stop()
    }
}
