import Foundation
import Testing

@Suite("Family: groups, acting as members, rounds, votes and the pick")
struct FamilyTests {
    @Test func groupDetailListsMembersAndTheActiveRound() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let groups = try await server.request(.GET, "/v1/groups", token: token)
        #expect((groups.object["groups"] as? [[String: Any]])?.map { $0["id"] as? String } == ["g_demo_family"])
        let group = try await server.request(.GET, "/v1/groups/g_demo_family", token: token)
        #expect(group.status == 200)
        #expect(group.header("ETag") != nil)
        let members = try #require(group.object["members"] as? [[String: Any]])
        #expect(Set(members.compactMap { $0["id"] as? String }) == ["mem_demo", "mem_sam", "mem_kid"])
        let round = try #require(group.object["active_round"] as? [String: Any])
        #expect(round["id"] as? String == "r_demo_round")
        let outsider = try await server.createUser("olga")
        let forbidden = try await server.request(.GET, "/v1/groups/g_demo_family", token: outsider)
        #expect(forbidden.status == 403)
        #expect(forbidden.errorCode == "forbidden")
        #expect(try await server.request(.GET, "/v1/groups/g_none", token: token).errorCode == "group_not_found")
        await server.stop()
    }

    @Test func aSecondActiveRoundIs409NamingTheActiveOne() async throws {
        let server = try await TestServer.start()
        let sam = try await server.login("sam", "sam-password")
        let response = try await server.request(
            .POST,
            "/v1/groups/g_demo_family/rounds",
            json: ["name": "Again"],
            token: sam
        )
        #expect(response.status == 409)
        #expect(response.errorCode == "round_already_active")
        #expect(response.errorDetails["active_round_id"] as? String == "r_demo_round")
        #expect((response.errorDetails["current"] as? [String: Any])?["status"] as? String == "voting")
        let closed = try await server.request(.POST, "/v1/rounds/r_demo_round/close", token: sam)
        #expect(closed.status == 200)
        #expect(closed.object["status"] as? String == "closed")
        let created = try await server.request(
            .POST,
            "/v1/groups/g_demo_family/rounds",
            json: ["name": "Next"],
            token: sam
        )
        #expect(created.status == 201)
        #expect(created.object["created_by_member_id"] as? String == "mem_sam")
        let rounds = try await server.request(.GET, "/v1/groups/g_demo_family/rounds", token: sam)
        #expect((rounds.object["rounds"] as? [Any])?.count == 2)
        let lateVote = try await server.request(
            .PUT,
            "/v1/rounds/r_demo_round/votes/129",
            json: ["value": "up"],
            token: sam
        )
        #expect(lateVote.status == 409)
        #expect(lateVote.errorCode == "round_not_active")
        await server.stop()
    }

    @Test func votesAreAttributedToTheActingMemberAndReplaced() async throws {
        let server = try await TestServer.start()
        let demo = try await server.login()
        let asKid = ["X-Acting-As-Member": "mem_kid"]
        let first = try await server.request(
            .PUT,
            "/v1/rounds/r_demo_round/votes/603",
            json: ["value": "up"],
            token: demo,
            headers: asKid
        )
        #expect(first.status == 201)
        #expect(first.object["member_id"] as? String == "mem_kid")
        let replaced = try await server.request(
            .PUT,
            "/v1/rounds/r_demo_round/votes/603",
            json: ["value": "down"],
            token: demo,
            headers: asKid
        )
        #expect(replaced.status == 200)
        #expect(replaced.object["value"] as? String == "down")
        let same = try await server.request(
            .PUT,
            "/v1/rounds/r_demo_round/votes/603",
            json: ["value": "down"],
            token: demo,
            headers: asKid
        )
        #expect(same.status == 200)
        #expect(same.object["version"] as? Int == replaced.object["version"] as? Int)
        let own = try await server.request(
            .PUT,
            "/v1/rounds/r_demo_round/votes/603",
            json: ["value": "up"],
            token: demo
        )
        #expect(own.object["member_id"] as? String == "mem_demo")
        let round = try await server.request(.GET, "/v1/rounds/r_demo_round", token: demo)
        let tallies = try #require(round.object["tallies"] as? [[String: Any]])
        let matrix = try #require(tallies.first { $0["tmdb_id"] as? Int == 603 })
        #expect(matrix["up"] as? Int == 1)
        #expect(matrix["down"] as? Int == 1)
        let bad = try await server.request(
            .PUT,
            "/v1/rounds/r_demo_round/votes/603",
            json: ["value": "sideways"],
            token: demo
        )
        #expect(bad.status == 400)
        await server.stop()
    }

    @Test func actingAsSomeoneYouDoNotManageIs403() async throws {
        let server = try await TestServer.start()
        let demo = try await server.login()
        let sam = try await server.login("sam", "sam-password")
        let asSam = try await server.request(
            .PUT,
            "/v1/rounds/r_demo_round/votes/129",
            json: ["value": "down"],
            token: demo,
            headers: ["X-Acting-As-Member": "mem_sam"]
        )
        #expect(asSam.status == 403)
        #expect(asSam.errorCode == "forbidden")
        let samAsKid = try await server.request(
            .PUT,
            "/v1/rounds/r_demo_round/votes/129",
            json: ["value": "down"],
            token: sam,
            headers: ["X-Acting-As-Member": "mem_kid"]
        )
        #expect(samAsKid.status == 403)
        let unknown = try await server.request(
            .GET,
            "/v1/rounds/r_demo_round",
            token: demo,
            headers: ["X-Acting-As-Member": "mem_ghost"]
        )
        #expect(unknown.status == 403)
        await server.stop()
    }

    @Test func thePickHappensOnceAndOnlyByTheCreator() async throws {
        let server = try await TestServer.start()
        let demo = try await server.login()
        let sam = try await server.login("sam", "sam-password")
        let bySam = try await server.request(.POST, "/v1/rounds/r_demo_round/pick", json: ["tmdb_id": 129], token: sam)
        #expect(bySam.status == 403)
        let asKid = try await server.request(
            .POST,
            "/v1/rounds/r_demo_round/pick",
            json: ["tmdb_id": 129],
            token: demo,
            headers: ["X-Acting-As-Member": "mem_kid"]
        )
        #expect(asKid.status == 403)
        let pick = try await server.request(.POST, "/v1/rounds/r_demo_round/pick", json: ["tmdb_id": 129], token: demo)
        #expect(pick.status == 201)
        #expect(pick.object["title"] as? String == "Spirited Away")
        let second = try await server.request(
            .POST,
            "/v1/rounds/r_demo_round/pick",
            json: ["tmdb_id": 603],
            token: demo
        )
        #expect(second.status == 409)
        #expect(second.errorCode == "already_picked")
        #expect((second.errorDetails["current"] as? [String: Any])?["tmdb_id"] as? Int == 129)
        let round = try await server.request(.GET, "/v1/rounds/r_demo_round", token: sam)
        #expect(round.object["status"] as? String == "picked")
        #expect((round.object["pick"] as? [String: Any])?["tmdb_id"] as? Int == 129)
        await server.stop()
    }

    @Test func suggestionsAndNewGroupsWithMembers() async throws {
        let server = try await TestServer.start()
        let demo = try await server.login()
        let suggestion = try await server.request(
            .POST,
            "/v1/rounds/r_demo_round/suggestions",
            json: ["tmdb_id": 949],
            token: demo
        )
        #expect(suggestion.status == 201)
        #expect(suggestion.object["title"] as? String == "Heat")
        let again = try await server.request(
            .POST,
            "/v1/rounds/r_demo_round/suggestions",
            json: ["tmdb_id": 949],
            token: demo
        )
        #expect(again.status == 200)
        let created = try await server.request(.POST, "/v1/groups", json: ["name": "Book club"], token: demo)
        #expect(created.status == 201)
        let groupID = try #require(created.object["id"] as? String)
        let added = try await server.request(
            .POST,
            "/v1/groups/\(groupID)/members",
            json: ["username": "sam"],
            token: demo
        )
        #expect(added.status == 201)
        let twice = try await server.request(
            .POST,
            "/v1/groups/\(groupID)/members",
            json: ["username": "sam"],
            token: demo
        )
        #expect(twice.status == 409)
        #expect(twice.errorCode == "already_member")
        let managed = try await server.request(
            .POST,
            "/v1/groups/\(groupID)/members",
            json: ["display_name": "Grandpa", "managed": true],
            token: demo
        )
        #expect(managed.status == 201)
        #expect(managed.object["manager_user_id"] as? String == "u_demo")
        let sam = try await server.login("sam", "sam-password")
        let samAdds = try await server.request(
            .POST,
            "/v1/groups/\(groupID)/members",
            json: ["username": "demo"],
            token: sam
        )
        #expect(samAdds.status == 403)
        let detail = try await server.request(.GET, "/v1/groups/\(groupID)", token: sam)
        #expect((detail.object["members"] as? [Any])?.count == 3)
        #expect(detail.object["active_round"] is NSNull)
        await server.stop()
    }

    @Test func aGroupChangesFeedCoversEveryFamilyCollection() async throws {
        let server = try await TestServer.start()
        let demo = try await server.login()
        let start = try await server.request(.GET, "/v1/groups/g_demo_family/changes", token: demo)
        #expect(start.status == 200)
        let initial = try #require(start.object["changes"] as? [[String: Any]])
        #expect(
            Set(initial.compactMap { $0["collection"] as? String }) == [
                "groups", "members", "rounds", "suggestions", "votes",
            ]
        )
        let cursor = try #require(start.object["cursor"] as? String)
        _ = try await server.request(.POST, "/v1/rounds/r_demo_round/pick", json: ["tmdb_id": 603], token: demo)
        let next = try await server.request(.GET, "/v1/groups/g_demo_family/changes?since=\(cursor)", token: demo)
        let changes = try #require(next.object["changes"] as? [[String: Any]])
        #expect(changes.compactMap { $0["collection"] as? String } == ["rounds", "picks"])
        let outsider = try await server.createUser("nina")
        #expect(try await server.request(.GET, "/v1/groups/g_demo_family/changes", token: outsider).status == 403)
        await server.stop()
    }
}
