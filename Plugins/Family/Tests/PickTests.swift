import FamilyPlugin
import FerryServer
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// The pick is exactly once per round: races, double submits and lost answers all end
/// with one pick on the server, and the loser is told which movie won.
@Suite("Family: the exactly-once pick")
struct PickTests {
    typealias Server = FamilyTestServer

    @Test func twoDevicesPickingAtOnceEndWithOnePickAndOneConflictReport() async throws {
        try await Server.with { server in
            let first = try await server.device()
            let second = try await server.device()
            async let a = first.family.pick(round: Server.round, tmdbID: 129)
            async let b = second.family.pick(round: Server.round, tmdbID: 603)
            let results = try await [a, b]

            let remote = try #require(try await server.round().pick)
            let winners = results.filter { if case .picked = $0 { true } else { false } }
            let losers = results.compactMap { result -> (FamilyPick, Int)? in
                if case .alreadyPicked(let winner, let yours) = result { (winner, yours) } else { nil }
            }
            #expect(winners == [.picked(remote)])
            #expect(losers.count == 1)
            let (winner, yours) = try #require(losers.first)
            #expect(winner.tmdbID == remote.tmdbID && yours != remote.tmdbID)
            let message = try #require(results.first { if case .alreadyPicked = $0 { true } else { false } }).message
            #expect(
                message.contains("already picked") && message.contains(remote.title ?? "?")
                    && message.contains("\(yours)")
            )
            #expect(try await server.requests()["POST /v1/rounds/{id}/pick"] == 2)

            // The loser's local state is the server's: its round shows the winner and that it lost.
            let loser = yours == 129 ? first : second
            let view = try await loser.family.round(Server.round).value
            #expect(view.detail.pick?.tmdbID == remote.tmdbID)
            #expect(view.detail.round.status == "picked")
            #expect(view.lostPick == yours)
        }
    }

    @Test func aDoubleSubmitFromOneDeviceIsToldTheSameMovieWasPicked() async throws {
        try await Server.with { server in
            let device = try await server.device()
            #expect(
                try await device.family.pick(round: Server.round, tmdbID: 129)
                    == .picked(try #require(try await server.round().pick))
            )
            let again = try await device.family.pick(round: Server.round, tmdbID: 129)
            guard case .alreadyPicked(let winner, 129) = again else {
                Issue.record("expected already picked, got \(again)")
                return
            }
            #expect(winner.tmdbID == 129)
            #expect(again.message.contains("same movie"))
        }
    }

    @Test func aRetryAfterADroppedAnswerReplaysTheFirstAttemptInsteadOf409() async throws {
        try await Server.with { server in
            let device = try await server.device()
            server.server.setFaults(
                FaultSettings(failNext: .init(kind: .drop, count: 1), pathPrefix: "/v1/rounds/\(Server.round)/pick")
            )
            let result = try await device.family.pick(round: Server.round, tmdbID: 603)
            guard case .picked(let pick) = result else {
                Issue.record("expected picked, got \(result)")
                return
            }
            #expect(pick.tmdbID == 603)
            #expect(try await server.round().pick?.tmdbID == 603)
            // The first attempt was handled (its answer was cut), the second replayed it.
            #expect(try await server.requests()["POST /v1/rounds/{id}/pick"] == 2)
            #expect(try await device.family.round(Server.round).value.lostPick == nil)
        }
    }

    @Test func aQueuedPickAfterADroppedAnswerIsDeliveredOnceWithoutAConflict() async throws {
        try await Server.with { server in
            let device = try await server.device(
                yaml: "plugins:\n  family:\n    operations:\n      pick: {delivery: queued}\n"
            )
            #expect(
                try await device.family.pick(round: Server.round, tmdbID: 603)
                    == .queued(roundID: Server.round, tmdbID: 603)
            )
            server.server.setFaults(
                FaultSettings(failNext: .init(kind: .drop, count: 1), pathPrefix: "/v1/rounds/\(Server.round)/pick")
            )
            let summary = try await device.test.runOnce()
            #expect(summary.sent == 1 && summary.conflicts == 0)
            #expect(try await server.round().pick?.tmdbID == 603)
            #expect(try await device.conflicts().isEmpty)
        }
    }

    @Test func aQueuedPickThatLostTheRaceIsReportedAndNotRetried() async throws {
        try await Server.with { server in
            let queued = try await server.device(
                yaml: "plugins:\n  family:\n    operations:\n      pick: {delivery: queued}\n"
            )
            let other = try await server.device()
            _ = try await queued.family.round(Server.round)
            queued.offline()
            #expect(
                try await queued.family.pick(round: Server.round, tmdbID: 603)
                    == .queued(roundID: Server.round, tmdbID: 603)
            )
            #expect(try await queued.family.round(Server.round).value.pickState == "pending")
            guard case .picked = try await other.family.pick(round: Server.round, tmdbID: 129) else {
                Issue.record("the other device should have picked first")
                return
            }

            queued.online()
            let summary = try await queued.test.runOnce()
            #expect(summary.conflicts == 1 && summary.sent == 0)
            let report = try #require(try await queued.conflicts().first)
            #expect(report.kind == "pick" && report.policy == .firstWriteWins && report.outcome == "remote")
            #expect(report.reason.contains("already_picked"))
            let described = try queued.test.runtime.plugin(FamilyPlugin.self).describe(report)
            #expect(described?.contains("already picked: Spirited Away (TMDB 129)") == true, "\(described ?? "nil")")
            #expect(try await queued.test.operations().isEmpty)
            let view = try await queued.family.round(Server.round).value
            #expect(view.detail.pick?.tmdbID == 129 && view.pickState == "picked" && view.lostPick == 603)

            // Nothing is retried: a second pass sends nothing.
            let before = try await server.requests()["POST /v1/rounds/{id}/pick"]
            #expect(try await queued.test.runOnce().sent == 0)
            #expect(try await server.requests()["POST /v1/rounds/{id}/pick"] == before)
            #expect(try await server.round().pick?.tmdbID == 129)
        }
    }

    @Test func onlyTheCreatorActingAsThemselfMayPick() async throws {
        try await Server.with { server in
            let sam = try await server.device("sam")
            await #expect { try await sam.family.pick(round: Server.round, tmdbID: 129) } throws: { error in
                (error as? FerryError)?.code == .rejected && "\(error)".contains("creator")
            }
            let demo = try await server.device()
            demo.credentials.setSessionHeaders([("X-Acting-As-Member", "mem_kid")])
            await #expect { try await demo.family.pick(round: Server.round, tmdbID: 129) } throws: { error in
                "\(error)".contains("acting as member mem_kid")
            }
            #expect(try await server.round().pick == nil)
        }
    }
}
