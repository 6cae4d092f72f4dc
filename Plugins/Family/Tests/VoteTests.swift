import FamilyPlugin
import Foundation
import SyncKernel
import Testing

/// One vote per member per movie per round: a changed vote replaces the old one, members
/// never conflict with each other, and acting as a managed member attributes the vote to it.
@Suite("Family: votes")
struct VoteTests {
    typealias Server = FamilyTestServer

    func votes(_ server: Server, tmdbID: Int) async throws -> [FamilyVote] {
        try await server.round().votes?.filter { $0.tmdbID == tmdbID } ?? []
    }

    @Test func aChangedVoteReplacesTheOldOne() async throws {
        try await Server.with { server in
            let device = try await server.device()
            #expect(try await device.family.vote(round: Server.round, tmdbID: 603, value: .up).value.state == "sent")
            _ = try await device.family.vote(round: Server.round, tmdbID: 603, value: .down)
            _ = try await device.family.vote(round: Server.round, tmdbID: 603, value: .down)
            let votes = try await votes(server, tmdbID: 603)
            #expect(votes.map(\.memberID) == ["mem_demo"] && votes.map(\.value) == ["down"])
            let tally = try #require(
                try await device.family.round(Server.round).value.detail.tallies?.first { $0.tmdbID == 603 }
            )
            #expect(tally.up == 0 && tally.down == 1 && tally.score == -1)
        }
    }

    @Test func membersVotingAtTheSameTimeNeverConflict() async throws {
        try await Server.with { server in
            let demo = try await server.device()
            let sam = try await server.device("sam")
            async let a = demo.family.vote(round: Server.round, tmdbID: 603, value: .up)
            async let b = sam.family.vote(round: Server.round, tmdbID: 603, value: .up)
            _ = try await (a, b)
            #expect(Set(try await votes(server, tmdbID: 603).map(\.memberID)) == ["mem_demo", "mem_sam"])
            #expect(try await demo.family.round(Server.round).value.detail.tallies?.first { $0.tmdbID == 603 }?.up == 2)
        }
    }

    @Test func actingAsAManagedMemberAttributesTheVoteToThem() async throws {
        try await Server.with { server in
            let device = try await server.device()
            device.credentials.setSessionHeaders([("X-Acting-As-Member", "mem_kid")])
            let vote = try await device.family.vote(round: Server.round, tmdbID: 603, value: .up)
            #expect(vote.value.memberKey == "mem_kid")
            device.credentials.setSessionHeaders([])
            _ = try await device.family.vote(round: Server.round, tmdbID: 603, value: .down)
            let votes = try await votes(server, tmdbID: 603)
            let kid = try #require(votes.first { $0.memberID == "mem_kid" })
            #expect(kid.value == "up" && kid.castByUserID == "u_demo")
            #expect(votes.first { $0.memberID == "mem_demo" }?.value == "down")
        }
    }

    @Test func actingAsSomeoneElsesMemberIsRefused() async throws {
        try await Server.with { server in
            let sam = try await server.device("sam")
            sam.credentials.setSessionHeaders([("X-Acting-As-Member", "mem_demo")])
            await #expect { try await sam.family.vote(round: Server.round, tmdbID: 603, value: .up) } throws: { error in
                (error as? FerryError)?.code == .rejected && "\(error)".contains("refused")
            }
            #expect(try await votes(server, tmdbID: 603).isEmpty)
        }
    }

    @Test func aVoteOnAClosedRoundSaysSo() async throws {
        try await Server.with { server in
            let device = try await server.device()
            _ = try await device.family.closeRound(Server.round)
            await #expect { try await device.family.vote(round: Server.round, tmdbID: 603, value: .up) } throws: {
                error in
                (error as? FerryError)?.code == .conflict && "\(error)".contains("round start")
            }
        }
    }
}
