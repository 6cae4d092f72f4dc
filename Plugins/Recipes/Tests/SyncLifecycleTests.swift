import Foundation
import RecipesPlugin
import SyncKernelTesting
import Testing

@testable import SyncKernel

@Suite("Recipes: pulls keep local writes, sign-out keeps saves")
struct SyncLifecycleTests {
    @Test func aPullKeepsUnsentSavesAndUnsavesAndTakesOtherDevicesChanges() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login()
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            try await book.refresh()
            bed.test.connectivity.set(.offline)
            try await book.unsave("demo-dal")  // unsent
            try await server.saveElsewhere("demo-pancakes", token: token)  // another device
            let pulled = try await book.refresh()
            #expect(pulled.upserted >= 1)
            let saved = Set(try await book.list(savedOnly: true).recipes.map(\.id))
            #expect(saved == ["demo-shakshuka", "demo-pancakes"])

            // The remote still has demo-dal; a full re-pull rebases it on the pending unsave:
            // its recipe and its saved state both arrive with the unsave put on top again.
            try await bed.runtime.store.write { db in try SyncCursors.reset(plugin: RecipesPlugin.name, in: db) }
            let again = try await book.refresh()
            #expect(again.rebased == 2)
            #expect(Set(try await book.list(savedOnly: true).recipes.map(\.id)) == saved)

            bed.test.connectivity.set(.online)
            #expect(try await bed.test.runOnce().sent == 1)
            #expect(try await server.savedIDs(token: token) == ["demo-shakshuka", "demo-pancakes"])
        }
    }

    @Test func signingOutAndInAgainKeepsLocalSavesAndResumesTheirWork() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login()
            let credentials = SwitchableCredentials(token: token, account: "u_demo")
            let bed = try await RecipesTestbed.make(server: server.url, token: nil, credentials: credentials)
            defer { bed.remove() }
            let book = try bed.book
            try await book.refresh()

            // Signed out: the save is local at once; the refused send holds the queue, spending nothing.
            credentials.signOut()
            try await book.save("demo-pancakes")
            #expect(try await bed.test.runOnce().sent == 0)
            let held = try #require(try await bed.test.operations().first)
            #expect(held.kind == "save" && held.attempts == 0 && held.state != .dead)
            #expect(try await book.list(savedOnly: true).recipes.contains { $0.id == "demo-pancakes" })
            #expect(try await server.savedIDs(token: token).contains("demo-pancakes") == false)

            // Signed in again as the same user: the held work goes out, the local saves stay.
            credentials.signIn(try await server.login())
            try await bed.runtime.resumeAfterLogin()
            #expect(try await bed.test.runOnce().sent == 1)
            #expect(try await server.savedIDs(token: token).contains("demo-pancakes"))
            #expect(
                Set(try await book.list(savedOnly: true).recipes.map(\.id)) == [
                    "demo-shakshuka", "demo-dal", "demo-pancakes",
                ]
            )
        }
    }
}
