import Foundation
import Testing

@Suite("Family: a round's attendees")
struct RoundAttendeesTests {
    /// Closes the demo round so that a new one may start.
    func closeDemoRound(_ server: TestServer, token: String) async throws {
        let closed = try await server.request(.POST, "/v1/rounds/r_demo_round/close", token: token)
        #expect(closed.status == 200)
    }

    func attendees(_ object: [String: Any]) -> [String]? {
        object["attendees"] as? [String]
    }

    @Test func theAttendeesGivenAreStoredAndInEveryRepresentation() async throws {
        let server = try await TestServer.start()
        let demo = try await server.login()
        try await closeDemoRound(server, token: demo)
        let start = try await server.request(.GET, "/v1/groups/g_demo_family/changes", token: demo)
        let cursor = try #require(start.object["cursor"] as? String)
        let created = try await server.request(
            .POST,
            "/v1/groups/g_demo_family/rounds",
            json: ["name": "Saturday", "attendees": ["mem_kid", "mem_sam", "mem_kid"]],
            token: demo
        )
        #expect(created.status == 201)
        #expect(attendees(created.object) == ["mem_kid", "mem_sam"])
        let roundID = try #require(created.object["id"] as? String)
        let sam = try await server.login("sam", "sam-password")
        let shown = try await server.request(.GET, "/v1/rounds/\(roundID)", token: sam)
        #expect(attendees(shown.object) == ["mem_kid", "mem_sam"])
        let list = try await server.request(.GET, "/v1/groups/g_demo_family/rounds", token: sam)
        let listed = try #require((list.object["rounds"] as? [[String: Any]])?.first { $0["id"] as? String == roundID })
        #expect(attendees(listed) == ["mem_kid", "mem_sam"])
        let group = try await server.request(.GET, "/v1/groups/g_demo_family", token: sam)
        #expect((group.object["active_round"] as? [String: Any]).map(attendees) == ["mem_kid", "mem_sam"])
        let feed = try await server.request(.GET, "/v1/groups/g_demo_family/changes?since=\(cursor)", token: demo)
        let changes = try #require(feed.object["changes"] as? [[String: Any]])
        let change = try #require(
            changes.first { $0["collection"] as? String == "rounds" && $0["id"] as? String == roundID }
        )
        #expect((change["entity"] as? [String: Any]).map(attendees) == ["mem_kid", "mem_sam"])
        // Closing keeps them.
        let closed = try await server.request(.POST, "/v1/rounds/\(roundID)/close", token: demo)
        #expect(attendees(closed.object) == ["mem_kid", "mem_sam"])
        await server.stop()
    }

    @Test func leftOutOrEmptyMeansEveryMember() async throws {
        let server = try await TestServer.start()
        let demo = try await server.login()
        let everyone = ["mem_demo", "mem_sam", "mem_kid"]
        let demoRound = try await server.request(.GET, "/v1/rounds/r_demo_round", token: demo)
        #expect(Set(attendees(demoRound.object) ?? []) == Set(everyone))
        try await closeDemoRound(server, token: demo)
        let bare = try await server.request(.POST, "/v1/groups/g_demo_family/rounds", token: demo)
        #expect(bare.status == 201)
        #expect(Set(attendees(bare.object) ?? []) == Set(everyone))
        #expect(attendees(bare.object)?.count == 3)
        let bareID = try #require(bare.object["id"] as? String)
        _ = try await server.request(.POST, "/v1/rounds/\(bareID)/close", token: demo)
        let empty = try await server.request(
            .POST,
            "/v1/groups/g_demo_family/rounds",
            json: ["attendees": [String]()],
            token: demo
        )
        #expect(empty.status == 201)
        #expect(Set(attendees(empty.object) ?? []) == Set(everyone))
        await server.stop()
    }

    @Test func anAttendeeWhoIsNotAMemberIs400NamingThem() async throws {
        let server = try await TestServer.start()
        let demo = try await server.login()
        try await closeDemoRound(server, token: demo)
        let other = try await server.request(.POST, "/v1/groups", json: ["name": "Book club"], token: demo)
        let otherGroup = try #require(other.object["id"] as? String)
        let otherMember = try await server.request(
            .POST,
            "/v1/groups/\(otherGroup)/members",
            json: ["display_name": "Grandpa", "managed": true],
            token: demo
        )
        let grandpa = try #require(otherMember.object["id"] as? String)
        for stranger in ["mem_ghost", grandpa] {
            let refused = try await server.request(
                .POST,
                "/v1/groups/g_demo_family/rounds",
                json: ["attendees": ["mem_sam", stranger]],
                token: demo
            )
            #expect(refused.status == 400)
            #expect(refused.errorCode == "unknown_attendee")
            #expect(refused.errorDetails["member_id"] as? String == stranger)
        }
        let rounds = try await server.request(.GET, "/v1/groups/g_demo_family/rounds", token: demo)
        #expect(
            (rounds.object["rounds"] as? [[String: Any]])?.filter { $0["status"] as? String == "voting" }.isEmpty
                == true
        )
        await server.stop()
    }

    @Test func attendeesThatAreNotAnArrayOfStringsAre400() async throws {
        let server = try await TestServer.start()
        let demo = try await server.login()
        try await closeDemoRound(server, token: demo)
        let wrong: [Any] = ["mem_sam", [42], ["mem_sam", NSNull()], ["ids": ["mem_sam"]], true]
        for value in wrong {
            let refused = try await server.request(
                .POST,
                "/v1/groups/g_demo_family/rounds",
                json: ["attendees": value],
                token: demo
            )
            #expect(refused.status == 400)
            #expect(refused.errorCode == "invalid_field")
            #expect(refused.errorDetails["field"] as? String == "attendees")
            let message = (refused.object["error"] as? [String: Any])?["message"] as? String
            #expect(message?.contains("attendees") == true)
        }
        await server.stop()
    }
}
