import Foundation
import Testing

/// A write sent again with its key is the same write, however it travels: alone the first
/// time and inside a batch the next, or with `X-Acting-As-Member` the second time because
/// the person began acting as a member in between (the client sends the header with every
/// request of such a session). It replays; only where the member changes what a request
/// does (a family group's endpoints) is another member another request.
@Suite("Idempotency: the same write sent again")
struct IdempotencyResendTests {
    static let note = "/v1/domains/notes/documents/a"

    /// The first answer to a note's put, sent alone with `key` and no acting member.
    func putNoteAlone(_ server: TestServer, token: String, key: String) async throws -> TestResponse {
        let first = try await server.request(
            .PUT,
            Self.note,
            json: ["text": "966"],
            token: token,
            headers: ["Idempotency-Key": key]
        )
        #expect(first.status == 201)
        return first
    }

    /// The one answer of a batch holding `request`.
    func batchOf(_ request: [String: Any], _ server: TestServer, token: String) async throws -> [String: Any] {
        let response = try await server.request(.POST, "/v1/batch", json: ["requests": [request]], token: token)
        #expect(response.status == 200)
        let answers = try #require(response.object["responses"] as? [[String: Any]])
        return try #require(answers.first)
    }

    @Test func aWriteSentAloneReplaysWhenItGoesAgainInsideABatch() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let first = try await putNoteAlone(server, token: token, key: "note-a-1")
        let again = try await batchOf(
            ["method": "PUT", "path": Self.note, "headers": ["Idempotency-Key": "note-a-1"], "body": ["text": "966"]],
            server,
            token: token
        )
        #expect(again["status"] as? Int == 201)
        #expect((again["headers"] as? [String: String])?["Idempotent-Replayed"] == "true")
        #expect((again["body"] as? [String: Any])?["version"] as? Int == first.object["version"] as? Int)
        await server.stop()
    }

    @Test func aWriteSentAgainActingAsAMemberReplaysWhereTheMemberChangesNothing() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        _ = try await putNoteAlone(server, token: token, key: "note-a-2")
        let acting = ["Idempotency-Key": "note-a-2", "X-Acting-As-Member": "mem_kid"]
        let alone = try await server.request(.PUT, Self.note, json: ["text": "966"], token: token, headers: acting)
        #expect(alone.status == 201)
        #expect(alone.header("Idempotent-Replayed") == "true")
        let batched = try await batchOf(
            ["method": "PUT", "path": Self.note, "headers": acting, "body": ["text": "966"]],
            server,
            token: token
        )
        #expect(batched["status"] as? Int == 201)
        #expect((batched["headers"] as? [String: String])?["Idempotent-Replayed"] == "true")
        await server.stop()
    }

    @Test func aVoteSentAgainAsAnotherMemberIsAnotherRequest() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let vote = "/v1/rounds/r_demo_round/votes/603"
        let first = try await server.request(
            .PUT,
            vote,
            json: ["value": "up"],
            token: token,
            headers: ["Idempotency-Key": "vote-1", "X-Acting-As-Member": "mem_kid"]
        )
        #expect(first.status == 201)
        let asSelf = try await server.request(
            .PUT,
            vote,
            json: ["value": "up"],
            token: token,
            headers: ["Idempotency-Key": "vote-1"]
        )
        #expect(asSelf.status == 422)
        #expect(asSelf.errorCode == "idempotency_key_reused")
        await server.stop()
    }
}
