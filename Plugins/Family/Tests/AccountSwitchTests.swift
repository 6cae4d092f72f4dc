import FamilyPlugin
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// One device that demo signs in on first, with votes queued rather than online-only.
private struct FamilyAccountDevice: Sendable {
    let server: FamilyTestServer
    let test: TestRuntime
    let credentials: StaticCredentials

    static let yaml = "plugins:\n  family:\n    operations:\n      vote: {delivery: queued}\n"

    var runtime: FerryRuntime { test.runtime }
    var family: FamilyClient { FamilyClient(runtime: runtime) }

    static func make(_ server: FamilyTestServer) async throws -> FamilyAccountDevice {
        let credentials = StaticCredentials(token: try await server.login("demo"), account: "u_demo")
        let test = try await TestRuntime.make(
            server: server.server.baseURL,
            yaml: yaml,
            plugins: [FamilyPlugin.self],
            credentials: credentials
        )
        test.connectivity.set(.online)
        return FamilyAccountDevice(server: server, test: test, credentials: credentials)
    }

    func offline() { test.connectivity.set(.offline) }
    func online() { test.connectivity.set(.online) }

    /// Signs `username` in on the device, as `u_<username>`.
    func signIn(_ username: String) async throws {
        credentials.signIn(try await server.login(username), as: "u_\(username)")
    }

    /// Why each queued operation is not being sent, as `ferry queue list` explains it.
    func explanations() async throws -> [String] {
        var reasons: [String] = []
        for operation in try await test.operations() {
            reasons.append(try await QueueInspector(runtime: runtime).explain(operation).rendered)
        }
        return reasons
    }

    /// The round's votes on The Matrix (603) as the server holds them: nobody has one in the seed.
    func matrixVotes() async throws -> [FamilyVote] {
        try await server.round().votes?.filter { $0.tmdbID == 603 } ?? []
    }

    /// Demo creates a group of their own, reads and caches both groups, the demo family's
    /// members and its round, then votes up The Matrix offline; sam signs in and a pass runs
    /// online: it sends nothing, and demo's vote no longer shows on the round. Returns the
    /// id of demo's own group.
    func demoVotesOfflineThenSamSignsIn() async throws -> String {
        let club = try await family.createGroup(name: "Demo's Club").value.id
        #expect(try await family.groups().value.count == 2)
        #expect(try await family.group(FamilyTestServer.group).value.members.count == 3)
        _ = try await family.round(FamilyTestServer.round)
        offline()
        #expect(try await family.vote(round: FamilyTestServer.round, tmdbID: 603, value: .up).queued)
        #expect(try await family.round(FamilyTestServer.round).value.localVotes.map(\.state) == ["pending"])
        let cached = try await family.groups()
        #expect(cached.fromCache && Set(cached.value.map(\.id)) == [club, FamilyTestServer.group])
        #expect(try await test.operations().map(\.account) == ["u_demo"])

        try await signIn("sam")
        online()
        #expect(try await test.runOnce().sent == 0, "demo's vote went out with sam's session")
        #expect(try await family.round(FamilyTestServer.round).value.localVotes.isEmpty, "demo's vote shows to sam")
        return club
    }
}

/// Two people on one device: the cached groups, members, rounds and local votes are the
/// signed-in account's, and a vote queued by one account is only ever cast as that account.
@Suite("Family: switching accounts on one device")
struct FamilyAccountSwitchTests {
    /// Catches a plugin that forgets nothing on a switch (the offline reads; the local votes
    /// in the setup) and a due query that ignores accounts (`sent` in the setup, the
    /// server's votes).
    @Test func whenSamSignsInDemosCachedFamilyLeavesAndDemosVoteIsHeld() async throws {
        try await FamilyTestServer.with { server in
            let device = try await FamilyAccountDevice.make(server)
            let club = try await device.demoVotesOfflineThenSamSignsIn()
            #expect(try await device.matrixVotes().isEmpty, "demo's vote reached the server as someone's")

            // Nothing of demo's is left to read offline (the round is cached again, as sam read it).
            device.offline()
            let reads: [@Sendable () async throws -> Void] = [
                { _ = try await device.family.groups() },
                { _ = try await device.family.group(club) },
                { _ = try await device.family.group(FamilyTestServer.group) },
            ]
            for read in reads {
                await #expect("demo's cached copy is still read") {
                    try await read()
                } throws: { error in
                    (error as? FerryError)?.code == .requiresConnection
                }
            }

            // Online, sam reads sam's own: the demo family, not demo's club, no demo vote here.
            device.online()
            #expect(try await device.family.groups().value.map(\.id) == [FamilyTestServer.group])

            let reasons = try await device.explanations()
            #expect(reasons.count == 1 && reasons[0].contains("held for account u_demo"), "\(reasons)")
        }
    }

    /// Catches a vote sent as sam's (`sent` and the local votes in the setup), a vote lost
    /// on the switch or cast for the wrong member (the server's votes), and demo's groups
    /// not coming back (the groups read).
    @Test func whenDemoSignsInAgainDemosVoteIsCastAsDemo() async throws {
        try await FamilyTestServer.with { server in
            let device = try await FamilyAccountDevice.make(server)
            let club = try await device.demoVotesOfflineThenSamSignsIn()

            try await device.signIn("demo")
            #expect(try await device.test.runOnce().sent == 1)
            #expect(try await device.test.operations().isEmpty)
            let votes = try await device.matrixVotes()
            #expect(votes.count == 1, "\(votes)")
            let vote = try #require(votes.first)
            #expect(vote.memberID == "mem_demo" && vote.castByUserID == "u_demo" && vote.value == "up")
            #expect(Set(try await device.family.groups().value.map(\.id)) == [club, FamilyTestServer.group])
        }
    }

    /// Catches a due query that casts a vote made while nobody was signed in as whoever
    /// signs in next (`sent` before the adoption), demo's cached round kept for sam (the
    /// offline read), and an adoption cast for the wrong member (the server's votes).
    @Test func aVoteMadeWhileSignedOutWaitsUntilSamKeepsItThenCountsForSam() async throws {
        try await FamilyTestServer.with { server in
            let device = try await FamilyAccountDevice.make(server)
            _ = try await device.family.round(FamilyTestServer.round)
            device.credentials.signOut()
            #expect(try await device.family.vote(round: FamilyTestServer.round, tmdbID: 603, value: .up).queued)
            #expect(try await device.test.operations().map(\.account) == [nil])

            try await device.signIn("sam")
            #expect(try await device.test.runOnce().sent == 0, "a signed-out vote went out as sam's unasked")
            #expect(try await device.matrixVotes().isEmpty)
            let reasons = try await device.explanations()
            #expect(reasons.count == 1 && reasons[0].contains("nobody was signed in"), "\(reasons)")
            device.offline()
            await #expect("demo's cached round is still read") {
                try await device.family.round(FamilyTestServer.round)
            } throws: { error in
                (error as? FerryError)?.code == .requiresConnection
            }
            device.online()

            #expect(try await device.runtime.adoptSignedOutWork(for: "u_sam") == 1)
            #expect(try await device.test.runOnce().sent == 1)
            let votes = try await device.matrixVotes()
            #expect(votes.count == 1, "\(votes)")
            let vote = try #require(votes.first)
            #expect(vote.memberID == "mem_sam" && vote.castByUserID == "u_sam")
        }
    }
}
