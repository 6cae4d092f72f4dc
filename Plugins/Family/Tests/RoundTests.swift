import FamilyPlugin
import Foundation
import SyncKernel
import Testing

/// One active round per group; starting, closing and showing rounds.
@Suite("Family: rounds")
struct RoundTests {
    typealias Server = FamilyTestServer

    struct Rounds: Decodable { var rounds: [FamilyRound] }

    func activeRounds(_ server: Server) async throws -> [FamilyRound] {
        try await server.get("/v1/groups/\(Server.group)/rounds", Rounds.self).rounds.filter { $0.status == "voting" }
    }

    @Test func aSecondStartNamesTheActiveRoundAndHowToCloseIt() async throws {
        try await Server.with { server in
            let device = try await server.device("sam")
            await #expect {
                try await device.family.startRound(group: Server.group, name: "Saturday")
            } throws: { error in
                let error = try #require(error as? FerryError)
                return error.code == .conflict && error.message.contains("r_demo_round \"Friday\"")
                    && error.message.contains("ferry family round close r_demo_round")
            }
            #expect(try await activeRounds(server).map(\.id) == [Server.round])
        }
    }

    @Test func twoDevicesStartingAtOnceGetOneRound() async throws {
        try await Server.with { server in
            let first = try await server.device()
            let second = try await server.device("sam")
            _ = try await first.family.closeRound(Server.round)
            async let a = attempt { try await first.family.startRound(group: Server.group, name: "A") }
            async let b = attempt { try await second.family.startRound(group: Server.group, name: "B") }
            let results = await [a, b]
            let started = results.compactMap { try? $0.get() }
            #expect(started.count == 1)
            let active = try await activeRounds(server)
            #expect(active.map(\.id) == started.map(\.value.id))
            let failure = try #require(
                results.compactMap { result -> FerryError? in
                    if case .failure(let error) = result { error as? FerryError } else { nil }
                }.first
            )
            #expect(failure.code == .conflict && failure.message.contains("ferry family round close \(active[0].id)"))
        }
    }

    @Test func closeThenStartWithAttendeesAnyMemberMayStart() async throws {
        try await Server.with { server in
            let sam = try await server.device("sam")
            let closed = try await sam.family.closeRound(Server.round)
            #expect(closed.value?.status == "closed" && !closed.queued)
            let started = try await sam.family.startRound(
                group: Server.group,
                name: "Saturday",
                attendees: ["Kiddo,mem_demo", "sam"]
            )
            #expect(started.value.status == "voting" && started.value.name == "Saturday")
            #expect(try await activeRounds(server).map(\.id) == [started.value.id])
            #expect(started.value.attendees == ["mem_kid", "mem_demo", "mem_sam"])
            let view = try await sam.family.round(started.value.id).value
            #expect(view.attendees == ["mem_kid", "mem_demo", "mem_sam"])
            let group = try await sam.family.group(Server.group).value
            #expect(group.activeRound?.round.id == started.value.id)
        }
    }

    @Test func theAttendeesLiveOnTheServerAndEveryDeviceSeesThem() async throws {
        try await Server.with { server in
            let sam = try await server.device("sam")
            _ = try await sam.family.closeRound(Server.round)
            let started = try await sam.family.startRound(
                group: Server.group,
                name: "Sunday",
                attendees: ["Kiddo", "sam"]
            )
            // The server stored them, as the server itself says.
            #expect(try await server.round(started.value.id).round.attendees == ["mem_kid", "mem_sam"])
            // Another device, which never saw the start, reads them back from the server.
            let other = try await server.device()
            let group = try await other.family.group(Server.group).value
            #expect(group.activeRound?.round.attendees == ["mem_kid", "mem_sam"])
            let view = try await other.family.round(started.value.id).value
            #expect(view.attendees == ["mem_kid", "mem_sam"])
            let text = FamilyTestRender.round(view, members: group.members)
            #expect(text.contains("Attendees: Kiddo, Sam"))
            // And keeps them cached for when it is offline.
            other.offline()
            let cached = try await other.family.round(started.value.id)
            #expect(cached.fromCache && cached.value.attendees == ["mem_kid", "mem_sam"])
        }
    }

    @Test func withoutAttendeesEveryMemberAttends() async throws {
        try await Server.with { server in
            let device = try await server.device()
            _ = try await device.family.closeRound(Server.round)
            let started = try await device.family.startRound(group: Server.group, name: nil)
            let everyone = ["mem_demo", "mem_sam", "mem_kid"]
            #expect(Set(try await server.round(started.value.id).round.attendees ?? []) == Set(everyone))
            let view = try await device.family.round(started.value.id).value
            #expect(Set(view.attendees) == Set(everyone) && view.attendees.count == 3)
        }
    }

    @Test func unknownAttendeesAreRefusedBeforeAnythingIsSent() async throws {
        try await Server.with { server in
            let device = try await server.device()
            _ = try await device.family.closeRound(Server.round)
            await #expect {
                try await device.family.startRound(group: Server.group, name: nil, attendees: ["Grandma"])
            } throws: { error in
                let message = (error as? FerryError)?.message ?? ""
                return message.contains("Grandma") && message.contains("Kiddo (mem_kid)")
            }
            #expect(try await activeRounds(server).isEmpty)
        }
    }

    @Test func showGivesSuggestionsFreshTalliesAndThePick() async throws {
        try await Server.with { server in
            let device = try await server.device()
            let fetched = try await device.family.round(Server.round)
            #expect(!fetched.fromCache)
            let detail = fetched.value.detail
            #expect(Set(detail.suggestions.map(\.tmdbID)) == [129, 603])
            #expect(detail.tallies?.first { $0.tmdbID == 129 }?.up == 1)
            #expect(detail.pick == nil)
            let text = FamilyTestRender.round(fetched.value)
            #expect(text.contains("Spirited Away") && text.contains("+1 -0"))
        }
    }

    @Test func anUnknownRoundSaysHowToFindOne() async throws {
        try await Server.with { server in
            let device = try await server.device()
            await #expect { try await device.family.round("r_nope") } throws: { error in
                (error as? FerryError)?.code == .notFound && "\(error)".contains("ferry family group show")
            }
            await #expect { try await device.family.round("../etc") } throws: { error in
                (error as? FerryError)?.code == .usage
            }
        }
    }
}
