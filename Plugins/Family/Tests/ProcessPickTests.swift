import FamilyPlugin
import Foundation
import SyncKernelTesting
import Testing

/// Two `ferry` processes, each with its own store, picking the same round at once.
@Suite("Family: picks from two processes")
struct ProcessPickTests {
    typealias Server = FamilyTestServer

    @Test(.enabled(if: FerryExecutable.isBuilt, "needs .build/debug/ferry; run `swift build` first"))
    func twoProcessesPickingAtOnceEndWithOnePickAndOneConflictReport() async throws {
        try await Server.with { server in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "ferry-family-\(UUID().uuidString)"
            )
            defer { try? FileManager.default.removeItem(at: folder) }
            let first = try Self.device(server: server.server.baseURL, folder: folder.appendingPathComponent("a"))
            let second = try Self.device(server: server.server.baseURL, folder: folder.appendingPathComponent("b"))
            async let a = first.run(["family", "pick", Server.round, "129"])
            async let b = second.run(["family", "pick", Server.round, "603"])
            let outcomes = try await [a, b]

            let remote = try #require(try await server.round().pick)
            #expect(outcomes.map(\.status).sorted() == [0, 79], "\(outcomes)")
            let winner = try #require(outcomes.first { $0.status == 0 })
            let loser = try #require(outcomes.first { $0.status == 79 })
            #expect(winner.output.contains("Picked \(remote.title ?? "?")"))
            #expect(loser.output.contains("already picked: \(remote.title ?? "?") (\(remote.tmdbID)) won"))
            #expect(try await server.requests()["POST /v1/rounds/{id}/pick"] == 2)

            // The loser's own store now shows the server's pick, even offline.
            let loserProcess = outcomes[0].status == 79 ? first : second
            _ = try await loserProcess.run(["network", "offline"])
            let shown = try await loserProcess.run(["family", "round", "show", Server.round])
            #expect(shown.status == 0 && shown.output.contains("Picked: \(remote.title ?? "?")"))
            #expect(shown.output.contains("lost"))
        }
    }

    /// `ferry` signed in as demo against `server`, with a store of its own in `folder`.
    static func device(server: String, folder: URL) throws -> FerryExecutable {
        try FerryExecutable.configured(
            """
            data_dir: \(folder.appendingPathComponent("data").path)
            server: \(server)
            network:
              mode: online
            plugins:
              auth:
                username: demo
                password: demo-password
              family: {}

            """,
            in: folder
        )
    }
}
