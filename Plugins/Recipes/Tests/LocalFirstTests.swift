import Foundation
import RecipesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Recipes: local answers while the server is unreachable")
struct LocalFirstTests {
    @Test func readsAndWritesAnswerFromTheStoreWhileTheServerIsAway() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login()
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            let pulled = try await book.refresh()
            #expect(pulled.upserted >= 5)  // three recipes and two saved entries

            await server.server.goAway()
            let started = ContinuousClock.now
            let listing = try await book.list()
            let toggled = try await book.toggle("demo-pancakes")
            let saved = try await book.list(savedOnly: true)
            let shown = try await book.show("demo-dal")
            let elapsed = ContinuousClock.now - started

            #expect(elapsed < .milliseconds(500), "local answers took \(elapsed)")
            #expect(listing.recipes.map(\.id).sorted() == ["demo-dal", "demo-pancakes", "demo-shakshuka"])
            #expect(listing.recipes.first { $0.id == "demo-dal" }?.saved == true)
            #expect(listing.lastSyncedAt != nil)
            #expect(toggled.saved && toggled.sync == "queued")
            #expect(Set(saved.recipes.map(\.id)) == ["demo-dal", "demo-pancakes", "demo-shakshuka"])
            #expect(saved.recipes.first { $0.id == "demo-pancakes" }?.pending == ["save"])
            #expect(shown.recipe.title == "Dal" || !shown.recipe.title.isEmpty)
            #expect(shown.saved)

            // Asking for a refresh while the server is away answers from the cache, quietly.
            let refreshed = try #require(try await book.read(policy: .cacheThenNetwork))
            #expect(refreshed.isFromCache && refreshed.offline != nil && refreshed.hasPendingWrites)
            #expect(refreshed.value.recipes.count == 3)

            // Unreachable: nothing is sent, nothing is lost, no attempt is spent.
            let offline = try await bed.test.runOnce()
            #expect(offline.sent == 0)
            let waiting = try #require(try await bed.test.operations().first)
            #expect(waiting.kind == "save" && waiting.attempts == 0)

            try await server.server.comeBack()
            bed.test.clock.advance(by: 3600)  // the connectivity recheck falls due
            #expect(try await bed.test.runOnce().sent == 1)
            #expect(try await server.savedIDs(token: token).contains("demo-pancakes"))
            #expect(try await bed.test.operations().isEmpty)
        }
    }

    /// A store that never pulled does not know the saved set: an explicit unsave there is
    /// queued, not taken for nothing to do, and the first pass leaves the recipe unsaved on
    /// the server and here (found by ferry-sim, seed 5941).
    @Test func anExplicitUnsaveBeforeTheFirstPullIsSentAndKept() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login()
            #expect(try await server.savedIDs(token: token).contains("demo-dal"))
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            let change = try await book.unsave("demo-dal")
            #expect(!change.saved && change.sync == "queued")

            #expect(try await bed.test.runOnce().sent == 1)
            #expect(try await !server.savedIDs(token: token).contains("demo-dal"))
            let saved = try await book.list(savedOnly: true)
            #expect(!saved.recipes.map(\.id).contains("demo-dal"))
            #expect(!saved.recipes.isEmpty, "the other saved recipes came with the pull")

            // Once the saved set is known, an unsave of what it does not hold is nothing to do.
            #expect(try await book.unsave("demo-dal").sync != "queued")
            #expect(try await bed.test.operations().isEmpty)
        }
    }

    @Test func aSaveThenAnUnsaveBeforeTheFirstPullSendTheUnsave() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login()
            #expect(try await server.savedIDs(token: token).contains("demo-dal"))
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            _ = try await book.save("demo-dal")
            _ = try await book.unsave("demo-dal")
            #expect(try await bed.test.operations().map(\.kind) == ["unsave"], "the two do not cancel out: the set was not known")

            #expect(try await bed.test.runOnce().sent == 1)
            #expect(try await !server.savedIDs(token: token).contains("demo-dal"))
            #expect(try await !book.list(savedOnly: true).recipes.map(\.id).contains("demo-dal"))
        }
    }

    @Test func twoTogglesBeforeTheFirstPullCancelOut() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login()
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            _ = try await book.toggle("demo-dal")
            _ = try await book.toggle("demo-dal")
            #expect(try await bed.test.operations().isEmpty, "a toggle goes by the local set: two leave nothing to send")
            _ = try await bed.test.runOnce()
            #expect(try await server.savedIDs(token: token).contains("demo-dal"))
        }
    }

    @Test func anUncachedRecipeCannotBeSavedOfflineAndTheErrorSaysWhy() async throws {
        let bed = try await RecipesTestbed.make(server: "http://127.0.0.1:9", token: "t")
        defer { bed.remove() }
        let error = await #expect(throws: FerryError.self) { try await bed.book.save("demo-dal") }
        #expect(error?.code == .requiresConnection)
        #expect(error?.message.contains("could not be reached") == true)
        #expect(try await bed.test.operations().isEmpty)
        #expect(try await bed.book.list().recipes.isEmpty)
    }

    @Test func inAirplaneModeAnUncachedRecipeIsNotFetched() async throws {
        try await RecipeServer.with { server in
            let bed = try await RecipesTestbed.make(server: server.url, token: try await server.login())
            defer { bed.remove() }
            bed.test.connectivity.set(.offline)
            try await server.resetStats()
            let error = await #expect(throws: FerryError.self) { try await bed.book.show("demo-dal") }
            #expect(error?.message.contains("no connection") == true)
            #expect(try await server.count("/v1/") == 0)
        }
    }

    @Test func badIdsAreRefusedBeforeAnythingIsWritten() async throws {
        let bed = try await RecipesTestbed.make(server: "http://127.0.0.1:9", token: "t")
        defer { bed.remove() }
        for id in ["", "../etc", "a/b", String(repeating: "x", count: 200), "-x"] {
            let error = await #expect(throws: FerryError.self) { try await bed.book.toggle(id) }
            #expect(error?.code == .usage)
        }
        #expect(try await bed.test.operations().isEmpty)
    }
}
