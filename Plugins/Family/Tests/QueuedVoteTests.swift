import FamilyPlugin
import Foundation
import SyncKernel
import Testing

/// `plugins.family.operations.vote.delivery: queued` is a configuration change, not a code
/// change: votes queue offline, coalesce per member and movie, keep their attribution,
/// and reach the server when the runner runs.
@Suite("Family: queued votes")
struct QueuedVoteTests {
    typealias Server = FamilyTestServer
    static let yaml = "plugins:\n  family:\n    operations:\n      vote: {delivery: queued}\n"

    @Test func queuedVotesCoalescePerMemberAndMovieAndArriveAttributed() async throws {
        try await Server.with { server in
            let device = try await server.device(yaml: Self.yaml)
            _ = try await device.family.round(Server.round)
            device.offline()
            #expect(try await device.family.vote(round: Server.round, tmdbID: 603, value: .up).queued)
            _ = try await device.family.vote(round: Server.round, tmdbID: 603, value: .down)
            _ = try await device.family.vote(round: Server.round, tmdbID: 129, value: .up)
            device.credentials.setSessionHeaders([("X-Acting-As-Member", "mem_kid")])
            _ = try await device.family.vote(round: Server.round, tmdbID: 603, value: .up)
            device.credentials.setSessionHeaders([])

            let operations = try await device.test.operations()
            #expect(
                operations.map(\.entity).sorted() == [
                    "r_demo_round/129/self", "r_demo_round/603/mem_kid", "r_demo_round/603/self",
                ]
            )
            let local = try await device.family.round(Server.round).value.localVotes
            #expect(local.allSatisfy { $0.state == "pending" } && local.count == 3)
            #expect(try await server.round().votes?.count == 1)

            device.online()
            let summary = try await device.test.runOnce()
            #expect(summary.sent == 3 && summary.conflicts == 0)
            let votes = try #require(try await server.round().votes)
            #expect(votes.first { $0.memberID == "mem_demo" && $0.tmdbID == 603 }?.value == "down")
            #expect(votes.first { $0.memberID == "mem_demo" && $0.tmdbID == 129 }?.value == "up")
            let kid = try #require(votes.first { $0.memberID == "mem_kid" && $0.tmdbID == 603 })
            #expect(kid.value == "up" && kid.castByUserID == "u_demo")
            #expect(try await server.requests()["PUT /v1/rounds/{id}/votes/{tmdb_id}"] == 3)
            #expect(try await device.family.round(Server.round).value.localVotes.allSatisfy { $0.state == "sent" })
            #expect(try await device.test.operations().isEmpty)
        }
    }

    @Test func otherOperationsStayOnlineOnly() async throws {
        try await Server.with { server in
            let device = try await server.device(yaml: Self.yaml)
            device.offline()
            await #expect { try await device.family.pick(round: Server.round, tmdbID: 603) } throws: { error in
                (error as? FerryError)?.code == .requiresConnection
            }
            #expect(try await device.test.operations().isEmpty)
        }
    }

    @Test func aQueuedVoteOnARoundThatClosedIsRefusedAndReported() async throws {
        try await Server.with { server in
            let device = try await server.device(yaml: Self.yaml)
            let sam = try await server.device("sam")
            device.offline()
            _ = try await device.family.vote(round: Server.round, tmdbID: 603, value: .up)
            _ = try await sam.family.closeRound(Server.round)
            device.online()
            let summary = try await device.test.runOnce()
            #expect(summary.conflicts == 1)
            let report = try #require(try await device.conflicts().first)
            #expect(report.kind == "vote" && report.outcome == "remote" && report.reason.contains("round_not_active"))
            let view = try await device.family.round(Server.round).value
            #expect(view.detail.round.status == "closed")
            #expect(view.localVotes.map(\.state) == ["refused"])
            #expect(try await device.test.operations().isEmpty)
        }
    }
}

extension QueuedVoteTests {
    @Test func aQueuedVoteTheServerRejectsShowsAsFailedNotPending() async throws {
        try await Server.with { server in
            let device = try await server.device(yaml: Self.yaml)
            device.credentials.setSessionHeaders([("X-Acting-As-Member", "mem_sam")])
            _ = try await device.family.vote(round: Server.round, tmdbID: 603, value: .up)
            let summary = try await device.test.runOnce()
            #expect(summary.deadLettered == 1)
            device.credentials.setSessionHeaders([])
            let vote = try #require(try await device.family.round(Server.round).value.localVotes.first)
            #expect(vote.state == "failed" && vote.note?.contains("ferry queue list") == true)
        }
    }
}
