import FamilyPlugin
import FerryServer
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// Online-only by default: with no connection every write fails at once and changes
/// nothing, while cached groups and rounds stay readable (tallies are never cached).
@Suite("Family: offline")
struct OfflineTests {
    typealias Server = FamilyTestServer

    @Test func writesFailFastWithRequiresAConnectionAndChangeNothing() async throws {
        try await Server.with { server in
            let device = try await server.device()
            _ = try await device.family.group(Server.group)
            _ = try await device.family.round(Server.round)
            device.offline()
            let cachedBefore = try await device.family.round(Server.round)
            let before = try await server.pluginRequests()

            let writes: [@Sendable () async throws -> Void] = [
                { _ = try await device.family.vote(round: Server.round, tmdbID: 603, value: .up) },
                { _ = try await device.family.pick(round: Server.round, tmdbID: 603) },
                { _ = try await device.family.startRound(group: Server.group, name: "x") },
                { _ = try await device.family.closeRound(Server.round) },
                { _ = try await device.family.addMember(group: Server.group, name: "Baby", managed: true) },
                { _ = try await device.family.suggest(round: Server.round, tmdbID: 949) },
                { _ = try await device.family.createGroup(name: "Other") },
            ]
            for write in writes {
                await #expect { try await write() } throws: { error in
                    let error = try #require(error as? FerryError)
                    return error.code == .requiresConnection && error.message.contains("requires a connection")
                        && error.message.contains("nothing was changed")
                }
            }
            #expect(try await server.pluginRequests() == before)
            #expect(try await device.test.operations().isEmpty)
            let round = try await server.round()
            #expect(round.pick == nil && round.round.status == "voting" && round.votes?.count == 1)
            let cached = try await device.family.round(Server.round)
            #expect(
                cached.fromCache && cached.value.localVotes.isEmpty && cached.value.detail == cachedBefore.value.detail
            )
            #expect(cached.value.pickState == nil && cached.value.detail.round.status == "voting")
        }
    }

    @Test func cachedGroupAndRoundStayReadableWithoutTallies() async throws {
        try await Server.with { server in
            let device = try await server.device()
            let fresh = try await device.family.group(Server.group)
            #expect(!fresh.fromCache && fresh.value.members.count == 3)
            _ = try await device.family.groups()
            device.offline()

            let group = try await device.family.group(Server.group)
            #expect(group.fromCache && group.value.members.map(\.id) == fresh.value.members.map(\.id))
            #expect(group.value.members.first { $0.id == "mem_kid" }?.managed == true)
            #expect(group.value.activeRound?.round.id == Server.round)
            #expect(try await device.family.groups().value.map(\.id) == [Server.group])

            let round = try await device.family.round(Server.round)
            #expect(round.fromCache && round.value.detail.tallies == nil && round.value.detail.votes == nil)
            #expect(Set(round.value.detail.suggestions.map(\.title)) == ["Spirited Away", "The Matrix"])
            #expect(FamilyTestRender.round(round.value).contains("fetched fresh and need a connection"))

            await #expect { try await device.family.group("g_never_seen") } throws: { error in
                (error as? FerryError)?.code == .requiresConnection && "\(error)".contains("nothing is cached")
            }
        }
    }

    @Test func talliesAreFetchedFreshWhenOnline() async throws {
        try await Server.with { server in
            let demo = try await server.device()
            let sam = try await server.device("sam")
            #expect(try await demo.family.round(Server.round).value.detail.tallies?.first { $0.tmdbID == 603 }?.up == 0)
            _ = try await sam.family.vote(round: Server.round, tmdbID: 603, value: .up)
            #expect(try await demo.family.round(Server.round).value.detail.tallies?.first { $0.tmdbID == 603 }?.up == 1)
        }
    }

    @Test func aRemoteThatStopsAnsweringFallsBackToTheCache() async throws {
        try await Server.with { server in
            let device = try await server.device()
            _ = try await device.family.group(Server.group)
            await server.server.goAway()
            let group = try await device.family.group(Server.group)
            #expect(group.fromCache && group.note?.contains("did not answer") == true)
            try await server.server.comeBack()
        }
    }
}

extension OfflineTests {
    @Test func aFailingRemoteFallsBackToTheCacheAndAnEndedSessionSaysLogIn() async throws {
        try await Server.with { server in
            let device = try await server.device()
            _ = try await device.family.group(Server.group)
            server.server.setFaults(FaultSettings(failNext: .init(kind: .unavailable, count: 3), pathPrefix: "/v1/"))
            let group = try await device.family.group(Server.group)
            #expect(group.fromCache && group.note?.contains("unavailable") == true)
            #expect(try await device.family.groups().value.map(\.id) == [Server.group])
            await #expect { try await device.family.round("r_never_fetched") } throws: { error in
                (error as? FerryError)?.code == .remoteUnavailable
            }

            let expired = StaticCredentials(token: "fat_not_a_token")
            let test = try await TestRuntime.make(
                server: server.server.baseURL,
                yaml: Server.online,
                plugins: [FamilyPlugin.self],
                credentials: expired
            )
            await #expect { try await FamilyClient(runtime: test.runtime).round(Server.round) } throws: { error in
                (error as? FerryError)?.code == .needsLogin && "\(error)".contains("ferry auth login")
            }
        }
    }
}
