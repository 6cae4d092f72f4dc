import Foundation
import Testing

@Suite("Batch: one transaction, a savepoint per sub-request")
struct BatchAtomicityTests {
    private static func batch(_ tag: String) -> [[String: Any]] {
        [
            [
                "method": "PUT", "path": "/v1/recipes/\(tag)-1", "headers": ["Idempotency-Key": "\(tag)-k1"],
                "body": ["title": "First"],
            ],
            // Fails mid-batch: the create-only PUT of a recipe that exists.
            [
                "method": "PUT", "path": "/v1/recipes/demo-pancakes",
                "headers": ["Idempotency-Key": "\(tag)-k2", "If-None-Match": "*"], "body": ["title": "Clobbered"],
            ],
            [
                "method": "PATCH", "path": "/v1/movies/m_demo_heat",
                "headers": ["Idempotency-Key": "\(tag)-k3", "If-Match": "\"1\""], "body": ["status": "watched"],
            ],
            // Fails too: the version it names is the one the sub-request before replaced.
            [
                "method": "PATCH", "path": "/v1/movies/m_demo_heat",
                "headers": ["Idempotency-Key": "\(tag)-k4", "If-Match": "\"1\""], "body": ["my_rating": 3],
            ],
        ]
    }

    @Test func aFailingSubRequestLeavesOnlyItsAnswerAndTheOthersCommitWithTheirRecords() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let first = try await server.request(.POST, "/v1/batch", json: ["requests": Self.batch("a")], token: token)
        let answers = try #require(first.object["responses"] as? [[String: Any]])
        #expect(answers.map { $0["status"] as? Int } == [201, 409, 200, 412])

        let pancakes = try await server.request(.GET, "/v1/recipes/demo-pancakes", token: token)
        #expect(pancakes.object["title"] as? String != "Clobbered")
        let heat = try await server.request(.GET, "/v1/movies/m_demo_heat", token: token)
        #expect(heat.object["status"] as? String == "watched")
        #expect(heat.object["version"] as? Int == 2)
        #expect(heat.object["my_rating"] as? Int != 3)
        let feed = try await server.request(.GET, "/v1/recipes/changes", token: token)
        let cursor = try #require(feed.object["cursor"] as? String)

        // The same batch again: every answer, failures included, is the stored one, and
        // nothing is applied a second time.
        let again = try await server.request(.POST, "/v1/batch", json: ["requests": Self.batch("a")], token: token)
        let replays = try #require(again.object["responses"] as? [[String: Any]])
        #expect(replays.map { $0["status"] as? Int } == [201, 409, 200, 412])
        for replay in replays {
            #expect((replay["headers"] as? [String: String])?["Idempotent-Replayed"] == "true")
        }
        #expect(
            (replays.map { $0["body"] as? NSDictionary }) == (answers.map { $0["body"] as? NSDictionary })
        )
        let later = try await server.request(.GET, "/v1/recipes/changes?since=\(cursor)", token: token)
        #expect((later.object["changes"] as? [Any])?.isEmpty == true, "a replayed batch changed something")
        let heatAgain = try await server.request(.GET, "/v1/movies/m_demo_heat", token: token)
        #expect(heatAgain.object["version"] as? Int == 2)

        // Each sub-request's record stands alone too: sent by itself, it is replayed.
        let alone = try await server.request(
            .PUT,
            "/v1/recipes/a-1",
            json: ["title": "First"],
            token: token,
            headers: ["Idempotency-Key": "a-k1"]
        )
        #expect(alone.status == 201)
        #expect(alone.header("Idempotent-Replayed") == "true")
        await server.stop()
    }

    @Test func laterSubRequestsSeeTheEffectsOfEarlierOnes() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let requests: [[String: Any]] = [
            ["method": "PUT", "path": "/v1/recipes/seen-1", "body": ["title": "One"]],
            [
                "method": "PUT", "path": "/v1/recipes/seen-1", "headers": ["If-Match": "\"1\""],
                "body": ["title": "Two"],
            ],
            ["method": "GET", "path": "/v1/recipes/seen-1"],
        ]
        let response = try await server.request(.POST, "/v1/batch", json: ["requests": requests], token: token)
        let answers = try #require(response.object["responses"] as? [[String: Any]])
        #expect(answers.map { $0["status"] as? Int } == [201, 200, 200])
        #expect((answers[2]["body"] as? [String: Any])?["title"] as? String == "Two")
        await server.stop()
    }
}
