import FerryServer
import FerryServerTesting
import Foundation
import RecipesPlugin
import SyncKernel
import SyncKernelTesting
import Synchronization
import Testing

@Suite("Recipes: queued operations leave together in one batch")
struct BatchDeliveryTests {
    static let recipes: Set<String> = ["demo-pancakes", "demo-dal", "demo-shakshuka"]
    static let batchRoute = "POST /v1/batch"
    static let saveRoute = "PUT /v1/saved-recipes/{id}"

    /// The server's raw counts: requests that arrived alone, and sub-requests of batches.
    static func rawStats(_ server: RecipeServer) async throws -> ServerRequestCounts {
        try await server.server.requestCounts()
    }

    /// Sam (who has saved nothing) caches the demo recipes, then saves all three while offline.
    static func savedOffline(_ bed: RecipesTestbed) async throws {
        let book = try bed.book
        try await book.refresh()
        bed.test.connectivity.set(.offline)
        for id in recipes.sorted() { try await book.save(id) }
        bed.test.connectivity.set(.online)
        #expect(Set(try await bed.queue()) == Set(recipes.map { "save:\($0)" }))
    }

    @Test func savesQueuedOfflineLeaveInOneBatchAndAllLand() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login("sam", "sam-password")
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            try await Self.savedOffline(bed)
            try await server.resetStats()

            let summary = try await bed.test.runOnce()
            #expect(summary.sent == 3 && !summary.failed)

            let stats = try await Self.rawStats(server)
            #expect(stats.requests[Self.batchRoute] == 1, "\(stats)")
            #expect(stats.requests[Self.saveRoute] == nil, "no save went alone: \(stats)")
            #expect(stats.batched[Self.saveRoute] == 3, "\(stats)")
            #expect(try await server.savedIDs(token: token) == Self.recipes)
            #expect(try await bed.test.operations().isEmpty)
            let saved = Set(try await bed.book.list(savedOnly: true).recipes.map(\.id))
            #expect(saved == Self.recipes)
        }
    }

    @Test func aBatchAnswered503IsRetriedAfterItsBackoffAndEachSaveLandsOnce() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login("sam", "sam-password")
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            try await Self.savedOffline(bed)
            try await server.resetStats()
            server.server.setFaults(
                FaultSettings(
                    retryAfterSeconds: 30,
                    failNext: .init(kind: .unavailable, count: 1),
                    pathPrefix: "/v1/batch"
                )
            )

            let first = try await bed.test.runOnce()
            #expect(first.sent == 0 && first.retried == 3)
            let waiting = try await bed.test.operations()
            #expect(waiting.count == 3)
            let now = bed.test.clock.now()
            for operation in waiting {
                #expect(operation.state == .pending && operation.attempts == 1)
                #expect(operation.nextAttemptAt >= now.addingTimeInterval(30), "Retry-After is honoured")
            }
            var stats = try await Self.rawStats(server)
            #expect(stats.requests[Self.batchRoute] == 1)
            #expect(stats.batched[Self.saveRoute] == nil, "the 503 came before any save ran: \(stats)")
            #expect(try await server.savedIDs(token: token).isEmpty)

            // Not due yet: nothing is sent.
            #expect(try await bed.test.runOnce().sent == 0)
            #expect(try await Self.rawStats(server).requests[Self.batchRoute] == 1)

            let due = try #require(waiting.map(\.nextAttemptAt).max())
            bed.test.clock.advance(by: due.timeIntervalSince(bed.test.clock.now()))
            let second = try await bed.test.runOnce()
            #expect(second.sent == 3 && second.retried == 0 && !second.failed)
            #expect(try await server.savedIDs(token: token) == Self.recipes)
            #expect(try await bed.test.operations().isEmpty)
            stats = try await Self.rawStats(server)
            #expect(stats.requests[Self.batchRoute] == 2, "\(stats)")
            #expect(stats.batched[Self.saveRoute] == 3, "each save ran exactly once: \(stats)")
            #expect(stats.requests[Self.saveRoute] == nil, "\(stats)")
        }
    }

    @Test func withBatchSizeOneEachSaveGoesAlone() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login("sam", "sam-password")
            let bed = try await RecipesTestbed.make(server: server.url, token: token, sync: "  batch_size: 1")
            defer { bed.remove() }
            try await Self.savedOffline(bed)
            try await server.resetStats()

            #expect(try await bed.test.runOnce().sent == 3)
            let stats = try await Self.rawStats(server)
            #expect(stats.requests[Self.batchRoute] == nil, "\(stats)")
            #expect(stats.requests[Self.saveRoute] == 3, "\(stats)")
            #expect(stats.batched.isEmpty, "\(stats)")
            #expect(try await server.savedIDs(token: token) == Self.recipes)
            #expect(try await bed.test.operations().isEmpty)
        }
    }

    @Test func aRemoteWithoutTheBatchEndpointGetsEachSaveAloneAndNothingIsLost() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login("sam", "sam-password")
            let bed = try await RecipesTestbed.make(
                server: server.url,
                token: token,
                sync: "  batch_path: /v1/no-batch-here"
            )
            defer { bed.remove() }
            try await Self.savedOffline(bed)
            try await server.resetStats()

            let summary = try await bed.test.runOnce()
            #expect(summary.sent == 3 && !summary.failed)
            let stats = try await Self.rawStats(server)
            #expect(stats.requests["POST <unmatched>"] == 1, "one try of the batch endpoint: \(stats)")
            #expect(stats.requests[Self.saveRoute] == 3, "\(stats)")
            #expect(try await server.savedIDs(token: token) == Self.recipes)
            #expect(try await bed.test.operations().isEmpty)
        }
    }

    @Test func anAnswerLostAfterTheBatchRanIsReplayedForTheSameKeysAndNothingRunsTwice() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login("sam", "sam-password")
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            // Create-only uploads (If-None-Match: *): run twice, the second would meet a 409.
            var ids: Set<String> = []
            for name in ["soup", "stew", "salad"] {
                let file = try bed.file("\(name).json", Data(#"{"title": "\#(name)"}"#.utf8))
                ids.insert(try await book.add(documentAt: file).id)
            }
            let uploads = try await bed.test.operations().filter { $0.kind == "upload" }
            #expect(uploads.count == 3)
            try await server.resetStats()
            // The batch runs, then its connection closes halfway through the answer.
            server.server.setFaults(FaultSettings(failNext: .init(kind: .drop, count: 1), pathPrefix: "/v1/batch"))

            // No answer came, the probe found the server: the same operations went again at
            // once, under the same keys, and the server replayed the answers it had stored.
            let events = bed.test.runtime.events.subscribe()
            let pass = try await bed.test.runOnce()
            #expect(pass.conflicts == 0 && pass.deadLettered == 0 && !pass.failed)
            #expect(pass.sent == 6)
            bed.test.runtime.events.finish()
            var waited: [UUID] = []
            for await event in events {
                if case .waitingForConnectivity(_, let operation, _) = event { waited.append(operation) }
            }
            #expect(waited.sorted() == uploads.map(\.id).sorted(), "the same operations, so the same keys")
            #expect(try await bed.test.operations().isEmpty)
            #expect(try await server.savedIDs(token: token) == ids)
            for id in ids {
                let remote = try #require(try await server.recipe(id, token: token))
                #expect(remote["version"] as? Int == 1, "written once: \(id)")
                let item = try #require(try await book.list().recipes.first { $0.id == id })
                #expect(item.onServer && item.mine && item.pending.isEmpty)
            }
            let stats = try await Self.rawStats(server)
            #expect(stats.requests[Self.batchRoute] == 3, "uploads, their resend, then the saves: \(stats)")
        }
    }

    @Test func anExpiredTokenOnTheBatchIsRenewedAndTheSavesLeaveTogetherAgain() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login("sam", "sam-password")
            let credentials = RenewableCredentials(token: token)
            let bed = try await RecipesTestbed.make(server: server.url, token: nil, credentials: credentials)
            defer { bed.remove() }
            try await Self.savedOffline(bed)
            // The token the runner holds is refused from now on; a refresh gives the good one back.
            credentials.expire(renewingTo: token)
            try await server.resetStats()

            let summary = try await bed.test.runOnce()
            #expect(summary.sent == 3 && !summary.failed)
            #expect(credentials.refreshCount >= 1)
            #expect(try await bed.test.operations().isEmpty)
            #expect(try await server.savedIDs(token: token) == Self.recipes)
            let stats = try await Self.rawStats(server)
            // The refused batch, then the same saves again with the renewed token: together,
            // unless one came back later than the 50 ms a batch waits for the others.
            #expect((1...2).contains(stats.requests[Self.batchRoute] ?? 0), "\(stats)")
            let resent = (stats.batched[Self.saveRoute] ?? 0) + (stats.requests[Self.saveRoute] ?? 0)
            #expect(resent == 3, "each save delivered once after the renewal: \(stats)")
        }
    }

    @Test func oneOperationsConflictInsideABatchIsItsOwnAndTheOthersAreDelivered() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login("sam", "sam-password")
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            // Sam adds a recipe whose id the server already has: its upload will meet a 409.
            let file = try bed.file("copy.json", Data(#"{"id": "demo-dal", "title": "My dal"}"#.utf8))
            _ = try await book.add(documentAt: file)
            try await book.save("demo-pancakes")
            try await book.save("demo-shakshuka")
            #expect(
                try await bed.queue() == [
                    "upload:demo-dal", "save:demo-dal", "save:demo-pancakes", "save:demo-shakshuka",
                ]
            )
            try await server.resetStats()

            let summary = try await bed.test.runOnce()
            #expect(summary.conflicts == 1 && summary.sent == 3 && summary.deadLettered == 0)
            #expect(try await bed.test.operations().isEmpty)
            #expect(try await server.savedIDs(token: token) == Self.recipes)
            let shown = try await book.show("demo-dal")
            #expect(shown.recipe.title != "My dal", "the server's recipe stands")
            #expect(shown.recipe.version != nil)
            let stats = try await Self.rawStats(server)
            // The upload and two saves leave together; the save behind the upload follows alone.
            #expect(stats.requests[Self.batchRoute] == 1, "\(stats)")
            #expect(stats.batched["PUT /v1/recipes/{id}"] == 1, "\(stats)")
            #expect(stats.batched[Self.saveRoute] == 2, "\(stats)")
            #expect(stats.requests[Self.saveRoute] == 1, "\(stats)")
        }
    }

    @Test func newRecipesTravelInABatchAndTheirPhotosAlone() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login("sam", "sam-password")
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            bed.test.connectivity.set(.offline)
            var added: [String: Data] = [:]
            for (index, name) in ["soup", "stew"].enumerated() {
                let file = try bed.file("\(name).json", Data(#"{"title": "\#(name)", "steps": ["cook"]}"#.utf8))
                let png = samplePNG(UInt8(10 + index))
                let recipe = try await book.add(documentAt: file, photoAt: try bed.file("\(name).png", png))
                added[recipe.id] = png
            }
            bed.test.connectivity.set(.online)
            try await server.resetStats()

            let summary = try await bed.test.runOnce()
            #expect(summary.sent == 4 && !summary.failed)
            #expect(try await bed.test.operations().isEmpty)
            for (id, png) in added {
                let remote = try #require(try await server.recipe(id, token: token))
                #expect((remote["photo"] as? [String: Any])?["sha256"] as? String == SHA256Hasher.hex(png))
            }
            #expect(try await server.savedIDs(token: token) == Set(added.keys))
            let stats = try await Self.rawStats(server)
            #expect(stats.requests[Self.batchRoute] == 2, "the uploads, then the saves: \(stats)")
            #expect(stats.batched["PUT /v1/recipes/{id}"] == 2, "\(stats)")
            #expect(stats.requests["PUT /v1/recipes/{id}/photo"] == 2, "\(stats)")
            #expect(stats.batched[Self.saveRoute] == 2, "\(stats)")
        }
    }
}

/// Credentials whose token a test makes stale; a refresh gives the good token back.
final class RenewableCredentials: CredentialProvider {
    private struct State {
        var token: String
        var renewed: String?
        var refreshCount = 0
    }

    private let state: Mutex<State>

    init(token: String) { state = Mutex(State(token: token)) }

    var refreshCount: Int { state.withLock { $0.refreshCount } }

    /// From now on the held token is refused; a refresh answers `token`.
    func expire(renewingTo token: String) {
        state.withLock {
            $0.token = "fat_expired_\(UUID().uuidString)"
            $0.renewed = token
        }
    }

    func accessToken() async -> String? { state.withLock { $0.token } }

    func refreshAccessToken(rejected: String) async -> String? {
        state.withLock { state in
            state.refreshCount += 1
            if let renewed = state.renewed { state.token = renewed }
            return state.renewed
        }
    }
}
