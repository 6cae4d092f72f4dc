import Foundation
import Testing

@Suite("Idempotency-Key replay and reuse")
struct IdempotencyTests {
    @Test func aRepeatedKeyReplaysTheFirstResponseWithoutASecondEffect() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let headers = ["Idempotency-Key": "add-heat-1"]
        let body: [String: Any] = ["tmdb_id": 603, "title": "The Matrix", "recommender": "Kim"]
        let first = try await server.request(.POST, "/v1/movies", json: body, token: token, headers: headers)
        #expect(first.status == 201)
        #expect(first.header("Idempotent-Replayed") == nil)
        let second = try await server.request(.POST, "/v1/movies", json: body, token: token, headers: headers)
        #expect(second.status == 201)
        #expect(second.header("Idempotent-Replayed") == "true")
        #expect(second.body == first.body)
        #expect(second.header("ETag") == first.header("ETag"))
        let list = try await server.request(.GET, "/v1/movies", token: token)
        let matrix = (list.object["movies"] as? [[String: Any]] ?? []).filter { $0["tmdb_id"] as? Int == 603 }
        #expect(matrix.count == 1)
        await server.stop()
    }

    @Test func aReusedKeyWithAnotherBodyIs422() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let headers = ["Idempotency-Key": "k-1"]
        #expect(
            try await server.request(.POST, "/v1/movies", json: ["tmdb_id": 603, "title": "The Matrix"], token: token, headers: headers).status
                == 201
        )
        let reused = try await server.request(
            .POST,
            "/v1/movies",
            json: ["tmdb_id": 550, "title": "Fight Club"],
            token: token,
            headers: headers
        )
        #expect(reused.status == 422)
        #expect(reused.errorCode == "idempotency_key_reused")
        let otherPath = try await server.request(
            .PUT,
            "/v1/saved-recipes/demo-pancakes",
            token: token,
            headers: headers
        )
        #expect(otherPath.status == 422)
        await server.stop()
    }

    @Test func errorsAreReplayedToo() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let headers = ["Idempotency-Key": "dup-heat"]
        let first = try await server.request(
            .POST,
            "/v1/movies",
            json: ["tmdb_id": 949, "title": "Heat"],
            token: token,
            headers: headers
        )
        #expect(first.status == 409)
        let second = try await server.request(
            .POST,
            "/v1/movies",
            json: ["tmdb_id": 949, "title": "Heat"],
            token: token,
            headers: headers
        )
        #expect(second.status == 409)
        #expect(second.header("Idempotent-Replayed") == "true")
        await server.stop()
    }

    @Test func keysAreScopedPerUser() async throws {
        let server = try await TestServer.start()
        let demo = try await server.login()
        let sam = try await server.login("sam", "sam-password")
        let headers = ["Idempotency-Key": "same-key"]
        #expect(
            try await server.request(.POST, "/v1/movies", json: ["tmdb_id": 603, "title": "The Matrix"], token: demo, headers: headers).status
                == 201
        )
        let samResponse = try await server.request(
            .POST,
            "/v1/movies",
            json: ["tmdb_id": 603, "title": "The Matrix"],
            token: sam,
            headers: headers
        )
        #expect(samResponse.status == 201)
        #expect(samResponse.header("Idempotent-Replayed") == nil)
        await server.stop()
    }

    @Test func anInvalidKeyIs400() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let response = try await server.request(
            .POST,
            "/v1/movies",
            json: ["tmdb_id": 603, "title": "The Matrix"],
            token: token,
            headers: ["Idempotency-Key": String(repeating: "k", count: 300)]
        )
        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_idempotency_key")
        await server.stop()
    }
}

@Suite("Idempotency fingerprints")
struct IdempotencyFingerprintTests {
    @Test func keyOrderAndWhitespaceDoNotMakeADifferentRequest() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let headers = ["Idempotency-Key": "order-1", "Content-Type": "application/json"]
        let first = try await server.request(
            .POST,
            "/v1/movies",
            body: Data(#"{"tmdb_id":603,"title":"The Matrix","recommender":"Kim"}"#.utf8),
            token: token,
            headers: headers
        )
        #expect(first.status == 201)
        let second = try await server.request(
            .POST,
            "/v1/movies",
            body: Data(#"{ "recommender": "Kim", "title": "The Matrix",  "tmdb_id": 603 }"#.utf8),
            token: token,
            headers: headers
        )
        #expect(second.status == 201)
        #expect(second.header("Idempotent-Replayed") == "true")
        await server.stop()
    }
}

@Suite("Idempotency under concurrency")
struct IdempotencyConcurrencyTests {
    @Test func concurrentDuplicatesHaveOneEffect() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let response = try await server.request(
                        .POST,
                        "/v1/movies",
                        json: ["tmdb_id": 550, "title": "Fight Club"],
                        token: token,
                        headers: ["Idempotency-Key": "race-1"]
                    )
                    return (response.status, response.errorCode)
                }
            }
            var all: [(Int, String?)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(statuses.allSatisfy { $0.0 == 201 || ($0.0 == 409 && $0.1 == "idempotency_key_in_flight") })
        #expect(statuses.contains { $0.0 == 201 })
        let list = try await server.request(.GET, "/v1/movies", token: token)
        #expect((list.object["movies"] as? [[String: Any]] ?? []).filter { $0["tmdb_id"] as? Int == 550 }.count == 1)
        await server.stop()
    }
}
