import Foundation
import Testing

@Suite("Batch")
struct BatchTests {
    @Test func subRequestsRunInOrderAsIfSentAlone() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let requests: [[String: Any]] = [
            ["method": "PUT", "path": "/v1/saved-recipes/demo-pancakes", "headers": ["Idempotency-Key": "s1"]],
            [
                "method": "PATCH", "path": "/v1/movies/m_demo_heat", "headers": ["If-Match": "\"1\""],
                "body": ["status": "watched"],
            ],
            [
                "method": "PATCH", "path": "/v1/movies/m_demo_heat", "headers": ["If-Match": "\"1\""],
                "body": ["status": "watching"],
            ],
            ["method": "DELETE", "path": "/v1/saved-recipes/demo-dal"],
            ["method": "GET", "path": "/v1/movies?status=watched"],
            ["method": "PUT", "path": "/v1/saved-recipes/nope"],
        ]
        let response = try await server.request(.POST, "/v1/batch", json: ["requests": requests], token: token)
        #expect(response.status == 200)
        let responses = try #require(response.object["responses"] as? [[String: Any]])
        #expect(responses.map { $0["status"] as? Int } == [201, 200, 412, 204, 200, 404])
        #expect((responses[1]["headers"] as? [String: String])?["ETag"] == "\"2\"")
        let current =
            ((responses[2]["body"] as? [String: Any])?["error"] as? [String: Any])?["details"] as? [String: Any]
        #expect((current?["current"] as? [String: Any])?["status"] as? String == "watched")
        #expect(((responses[4]["body"] as? [String: Any])?["movies"] as? [Any])?.count == 3)
        #expect(
            ((responses[5]["body"] as? [String: Any])?["error"] as? [String: Any])?["code"] as? String
                == "recipe_not_found"
        )
        // The idempotency key inside the batch is honoured alone too.
        let replay = try await server.request(
            .PUT,
            "/v1/saved-recipes/demo-pancakes",
            token: token,
            headers: ["Idempotency-Key": "s1"]
        )
        #expect(replay.status == 201)
        #expect(replay.header("Idempotent-Replayed") == "true")
        let stats = try await server.request(.GET, "/admin/stats")
        #expect((stats.object["requests"] as? [String: Int])?["POST /v1/batch"] == 1)
        #expect((stats.object["batched"] as? [String: Int])?["PATCH /v1/movies/{id}"] == 2)
        await server.stop()
    }

    @Test func authComesFromTheOuterRequest() async throws {
        let server = try await TestServer.start()
        let unauthenticated = try await server.request(.POST, "/v1/batch", json: ["requests": [] as [Any]])
        #expect(unauthenticated.status == 401)
        let sam = try await server.login("sam", "sam-password")
        let response = try await server.request(
            .POST,
            "/v1/batch",
            json: ["requests": [["method": "GET", "path": "/v1/movies/m_demo_heat"]]],
            token: sam
        )
        #expect((response.object["responses"] as? [[String: Any]])?.first?["status"] as? Int == 404)
        await server.stop()
    }

    @Test func badSubRequestsAnswerTheirOwnErrorsAndTheCountIsCapped() async throws {
        let server = try await TestServer.start { $0.maxBatchRequests = 3 }
        let token = try await server.login()
        let requests: [Any] = [
            ["method": "TRACE", "path": "/v1/movies"],
            ["method": "GET", "path": "/admin/stats"],
            ["method": "POST", "path": "/v1/batch", "body": ["requests": [] as [Any]]],
        ]
        let response = try await server.request(.POST, "/v1/batch", json: ["requests": requests], token: token)
        let statuses = (response.object["responses"] as? [[String: Any]])?.map { $0["status"] as? Int }
        #expect(statuses == [400, 400, 400])
        let tooMany = try await server.request(
            .POST,
            "/v1/batch",
            json: ["requests": Array(repeating: ["method": "GET", "path": "/v1/movies"], count: 4)],
            token: token
        )
        #expect(tooMany.status == 400)
        #expect(tooMany.errorCode == "batch_too_large")
        let notArray = try await server.request(.POST, "/v1/batch", json: ["requests": "all"], token: token)
        #expect(notArray.status == 400)
        await server.stop()
    }

    @Test func aKeyUsedTwiceInOneBatchReplaysTheFirstAnswer() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let put: [String: Any] = [
            "method": "PUT", "path": "/v1/recipes/twice", "headers": ["Idempotency-Key": "k-twice"],
            "body": ["title": "Twice"],
        ]
        let response = try await server.request(.POST, "/v1/batch", json: ["requests": [put, put]], token: token)
        let responses = try #require(response.object["responses"] as? [[String: Any]])
        #expect(responses.map { $0["status"] as? Int } == [201, 201])
        #expect((responses[1]["headers"] as? [String: String])?["Idempotent-Replayed"] == "true")
        let recipe = try await server.request(.GET, "/v1/recipes/twice", token: token)
        #expect(recipe.object["version"] as? Int == 1)
        await server.stop()
    }

    /// A batch's records are saved in statements of 64, 32 ... rows: every one of 100 is
    /// there, and the same batch again is replayed whole, nothing run twice.
    @Test func everyRecordOfALargeBatchIsSavedAndReplayed() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let puts: [[String: Any]] = (0..<100).map { index in
            [
                "method": "PUT", "path": "/v1/recipes/many-\(index)", "headers": ["Idempotency-Key": "k-many-\(index)"],
                "body": ["title": "Many \(index)"],
            ]
        }
        for round in ["first", "again"] {
            let response = try await server.request(.POST, "/v1/batch", json: ["requests": puts], token: token)
            let responses = try #require(response.object["responses"] as? [[String: Any]])
            #expect(responses.count == 100)
            #expect(responses.allSatisfy { $0["status"] as? Int == 201 }, "\(round)")
            let replayed = responses.filter { ($0["headers"] as? [String: String])?["Idempotent-Replayed"] == "true" }
            #expect(replayed.count == (round == "first" ? 0 : 100))
        }
        let last = try await server.request(.GET, "/v1/recipes/many-99", token: token)
        #expect(last.object["version"] as? Int == 1)
        await server.stop()
    }

    /// A batch claims its keys before it reads their records: the same create sent alone
    /// while the batch runs either waits (409 in flight) or is replayed, and never runs twice.
    @Test func aBatchAndALoneRequestWithTheSameKeyNeverBothRun() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let create: [String: Any] = [
            "method": "PUT", "path": "/v1/recipes/race-1",
            "headers": ["Idempotency-Key": "k-race", "If-None-Match": "*"], "body": ["title": "Race"],
        ]
        let reads = Array(repeating: ["method": "GET", "path": "/v1/recipes"] as [String: Any], count: 300)
        // 300 reads take a while on a loaded machine: the race is what matters, not the time.
        async let batch = server.request(
            .POST,
            "/v1/batch",
            json: ["requests": reads + [create]],
            token: token,
            timeout: .seconds(60)
        )
        async let alone = server.request(
            .PUT,
            "/v1/recipes/race-1",
            json: ["title": "Race"],
            token: token,
            headers: ["Idempotency-Key": "k-race", "If-None-Match": "*"],
            timeout: .seconds(60)
        )
        let (batchAnswer, aloneAnswer) = try await (batch, alone)
        let slot = try #require((batchAnswer.object["responses"] as? [[String: Any]])?.last)
        let slotCode = ((slot["body"] as? [String: Any])?["error"] as? [String: Any])?["code"] as? String
        let aloneCode = (aloneAnswer.object["error"] as? [String: Any])?["code"] as? String
        for (status, code) in [(slot["status"] as? Int, slotCode), (aloneAnswer.status, aloneCode)] {
            #expect(status == 201 || code == "idempotency_key_in_flight", "ran twice: \(status ?? 0) \(code ?? "")")
        }
        #expect(slot["status"] as? Int == 201 || aloneAnswer.status == 201)
        let recipe = try await server.request(.GET, "/v1/recipes/race-1", token: token)
        #expect(recipe.object["version"] as? Int == 1)
        await server.stop()
    }
}
