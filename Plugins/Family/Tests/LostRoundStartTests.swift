import FamilyPlugin
import Foundation
import SyncKernel
import Testing

/// A round started offline while the group had one active never starts (one active round
/// per group, 409): it was the group's movie night all along. The writes made on it go to
/// the active round instead of waiting for an id that never comes, and the conflict says so.
@Suite("Family: writes on a round whose offline start lost")
struct LostRoundStartTests {
    typealias Server = FamilyTestServer
    static let yaml = """
        plugins:
          family:
            operations:
              round_start: {delivery: queued}
              suggest: {delivery: queued}
              vote: {delivery: queued}
        """

    @Test func votesAndSuggestionsOnTheLostRoundGoToTheActiveRound() async throws {
        try await Server.with { server in
            let device = try await server.device(yaml: Self.yaml)
            _ = try await device.family.group(Server.group)
            device.offline()
            let started = try await device.family.startRound(group: Server.group, name: "Late")
            #expect(started.queued && started.value.id.hasPrefix("local-"))
            _ = try await device.family.suggest(round: started.value.id, tmdbID: 949)
            device.credentials.setSessionHeaders([("X-Acting-As-Member", "mem_kid")])
            _ = try await device.family.vote(round: started.value.id, tmdbID: 949, value: .up)
            device.credentials.setSessionHeaders([])

            device.online()
            for _ in 0..<4 where try await !device.test.operations().isEmpty {
                _ = try await device.test.runOnce()
                device.test.clock.advance(by: 60)
            }
            #expect(try await device.test.operations().isEmpty)
            let round = try await server.round()
            #expect(round.suggestions.contains { $0.tmdbID == 949 })
            let vote = try #require(round.votes?.first { $0.memberID == "mem_kid" && $0.tmdbID == 949 })
            #expect(vote.value == "up")
            let shown = try await device.family.round(Server.round).value
            #expect(shown.localVotes.first { $0.tmdbID == 949 }?.state == "sent")

            let conflict = try #require(try await device.conflicts().first { $0.kind == "round_start" })
            #expect(conflict.outcome == "remote")
            let said = try #require(device.runtime.plugin(FamilyPlugin.self).describe(conflict))
            #expect(said.contains("Late") && said.contains(Server.round))
        }
    }
}
