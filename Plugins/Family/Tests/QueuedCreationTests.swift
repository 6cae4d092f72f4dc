import FamilyPlugin
import Foundation
import SyncKernel
import Testing

/// Entities created while queued get a local id; the server's id replaces it everywhere
/// once known, and writes that refer to it wait for it.
@Suite("Family: queued creations")
struct QueuedCreationTests {
    typealias Server = FamilyTestServer
    static let yaml = """
        plugins:
          family:
            operations:
              round_start: {delivery: queued}
              vote: {delivery: queued}
        """

    @Test func aRoundStartedOfflineAndAVoteOnItReachTheServerInOrder() async throws {
        try await Server.with { server in
            let device = try await server.device(yaml: Self.yaml)
            _ = try await device.family.closeRound(Server.round)
            _ = try await device.family.group(Server.group)
            device.offline()
            let started = try await device.family.startRound(group: Server.group, name: "Offline", attendees: ["Kiddo"])
            #expect(started.queued && started.value.id.hasPrefix("local-") && started.value.status == "pending")
            _ = try await device.family.vote(round: started.value.id, tmdbID: 603, value: .up)
            #expect(try await device.family.group(Server.group).value.activeRound?.round.id == started.value.id)

            let pending = try await device.family.round(started.value.id).value
            #expect(pending.localVotes.map(\.state) == ["pending"])
            #expect(pending.attendees == ["mem_kid"])

            device.online()
            var summary = try await device.test.runOnce()
            for _ in 0..<5 where try await !device.test.operations().isEmpty {
                device.test.clock.advance(by: 600)
                summary = try await device.test.runOnce()
            }
            _ = summary
            #expect(try await device.test.operations().isEmpty)
            let group = try await device.family.group(Server.group).value
            let round = try #require(group.activeRound)
            #expect(round.round.name == "Offline" && !round.round.id.hasPrefix("local-"))
            let view = try await device.family.round(round.round.id).value
            #expect(view.attendees == ["mem_kid"])
            // The queued start carried them to the server, which stored them.
            #expect(try await server.round(round.round.id).round.attendees == ["mem_kid"])
            #expect(round.round.attendees == ["mem_kid"])
            #expect(view.detail.votes?.map(\.memberID) == ["mem_demo"])
            #expect(view.localVotes.map(\.state) == ["sent"])
            // The local id the user saw still works: it now means the server's round.
            let byLocalID = try await device.family.round(started.value.id)
            #expect(!byLocalID.fromCache && byLocalID.value.detail.round.id == round.round.id)
        }
    }

    @Test func aMemberAddedOfflineAttendsARoundStartedOfflineOnceBothReachTheServer() async throws {
        let yaml = Self.yaml.replacingOccurrences(
            of: "round_start: {delivery: queued}",
            with: "round_start: {delivery: queued}\n      member_add: {delivery: queued}"
        )
        try await Server.with { server in
            let device = try await server.device(yaml: yaml)
            _ = try await device.family.closeRound(Server.round)
            _ = try await device.family.group(Server.group)
            device.offline()
            let grandma = try await device.family.addMember(group: Server.group, name: "Grandma", managed: true)
            #expect(grandma.queued && grandma.value.id.hasPrefix("local-"))
            let started = try await device.family.startRound(
                group: Server.group,
                name: nil,
                attendees: ["Grandma", "Kiddo"]
            )
            let pending = try await device.family.round(started.value.id).value
            #expect(pending.attendees == [grandma.value.id, "mem_kid"])
            #expect(FamilyTestRender.round(pending, attendees: []).contains("Attendees: every member of the group"))

            device.online()
            for _ in 0..<5 where try await !device.test.operations().isEmpty {
                _ = try await device.test.runOnce()
                device.test.clock.advance(by: 600)
            }
            #expect(try await device.test.operations().isEmpty)
            let group = try await device.family.group(Server.group).value
            let remoteGrandma = try #require(group.members.first { $0.displayName == "Grandma" })
            #expect(!remoteGrandma.id.hasPrefix("local-"))
            let round = try #require(group.activeRound?.round)
            #expect(try await server.round(round.id).round.attendees == [remoteGrandma.id, "mem_kid"])
            #expect(try await device.family.round(started.value.id).value.attendees == [remoteGrandma.id, "mem_kid"])
        }
    }
}

/// A round started while queued meets the round another device started first: the
/// server's round stands, the local one is forgotten and nothing is left queued.
@Suite("Family: a queued round start that lost")
struct QueuedRoundStartConflictTests {
    @Test func aRoundStartedWhileAnotherIsActiveAdoptsTheActiveOne() async throws {
        try await FamilyTestServer.with { server in
            let device = try await server.device(yaml: QueuedCreationTests.yaml)
            _ = try await device.family.group(FamilyTestServer.group)
            device.offline()
            let started = try await device.family.startRound(group: FamilyTestServer.group, name: "Late")
            #expect(started.queued)

            device.online()
            _ = try await device.test.runOnce()
            #expect(try await device.test.operations().isEmpty)
            let active = try await device.family.group(FamilyTestServer.group).value.activeRound
            #expect(active?.round.id == FamilyTestServer.round)
        }
    }
}
