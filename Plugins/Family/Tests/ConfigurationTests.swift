import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@testable import FamilyPlugin

/// The plugin's declared policies, its YAML section, and its command line.
@Suite("Family: configuration and commands")
struct ConfigurationTests {
    func runtime(_ yaml: String) async throws -> FerryRuntime {
        try await TestRuntime.make(server: "http://127.0.0.1:9", yaml: yaml, plugins: [FamilyPlugin.self]).runtime
    }

    @Test func everyOperationIsOnlineOnlyByDefault() async throws {
        let runtime = try await runtime("plugins:\n  family: {}\n")
        for kind in FamilyKind.allCases {
            let policy = runtime.policy(plugin: "family", kind: kind.rawValue)
            #expect(policy.delivery == .onlineOnly, "\(kind)")
        }
        let pick = runtime.policy(plugin: "family", kind: "pick")
        #expect(pick.conflict == .firstWriteWins)
        let vote = runtime.policy(plugin: "family", kind: "vote")
        #expect(vote.coalesce.mode == .replace)
    }

    @Test func votesSwitchToQueuedInYAML() async throws {
        let runtime = try await runtime("plugins:\n  family:\n    operations:\n      vote: {delivery: queued}\n")
        #expect(runtime.policy(plugin: "family", kind: "vote").delivery == .queued)
        #expect(runtime.policy(plugin: "family", kind: "pick").delivery == .onlineOnly)
    }

    @Test func settingsAreReadAndUnknownKeysRefused() async throws {
        let runtime = try await runtime("plugins:\n  family:\n    default_group: g_demo_family\n")
        #expect(try runtime.plugin(FamilyPlugin.self).settings.defaultGroup == "g_demo_family")
        await #expect { try await self.runtime("plugins:\n  family:\n    default_grup: x\n") } throws: { error in
            "\(error)".contains("default_grup")
        }
        await #expect {
            try await self.runtime("plugins:\n  family:\n    operations:\n      ballot: {delivery: queued}\n")
        } throws: { error in
            "\(error)".contains("ballot") && "\(error)".contains("vote")
        }
    }

    @Test func commandsParseTheirArguments() throws {
        let vote = try FamilyCommand.parseAsRoot(["vote", "r_demo_round", "603", "down"])
        #expect((vote as? VoteCommand)?.value == .down)
        #expect(throws: (any Error).self) {
            try FamilyCommand.parseAsRoot(["vote", "r_demo_round", "603", "sideways"])
        }
        let start = try FamilyCommand.parseAsRoot([
            "round", "start", "g_demo_family", "--attendees", "Kiddo", "sam", "--name", "Fri",
        ])
        #expect((start as? RoundCommand.Start)?.attendees == ["Kiddo", "sam"])
        let add = try FamilyCommand.parseAsRoot(["member", "add", "Baby", "--managed"])
        #expect((add as? MemberCommand.Add)?.managed == true)
    }

    @Test func badIdsAndMoviesAreRefusedBeforeAnythingIsSent() async throws {
        let family = FamilyClient(runtime: try await runtime("plugins:\n  family: {}\n"))
        await #expect { try await family.vote(round: "r/../x", tmdbID: 603, value: .up) } throws: { error in
            (error as? FerryError)?.code == .usage
        }
        await #expect { try await family.pick(round: "r_demo_round", tmdbID: -1) } throws: { error in
            (error as? FerryError)?.code == .usage && "\(error)".contains("TMDB")
        }
    }
}
