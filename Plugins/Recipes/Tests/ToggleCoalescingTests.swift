import FerryServer
import Foundation
import RecipesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("Recipes: rapid toggles send at most what is needed")
struct ToggleCoalescingTests {
    @Test func anOddNumberOfTogglesSendsOneRequestAndAnEvenNumberSendsNone() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login()
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            try await book.refresh()
            try await server.resetStats()

            for _ in 0..<5 { try await book.toggle("demo-pancakes") }  // not saved: ends saved
            for _ in 0..<4 { try await book.toggle("demo-dal") }  // saved: ends saved
            #expect(try await bed.queue() == ["save:demo-pancakes"])

            let summary = try await bed.test.runOnce()
            #expect(summary.sent == 1)
            let stats = try await server.stats()
            #expect(stats["PUT /v1/saved-recipes/{id}"] == 1)
            #expect(stats["DELETE /v1/saved-recipes/{id}"] == nil)
            #expect(try await server.savedIDs(token: token) == ["demo-shakshuka", "demo-dal", "demo-pancakes"])
        }
    }

    @Test func anUnsentSaveFollowedByAnUnsaveSendsNothing() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login()
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            try await book.refresh()
            try await server.resetStats()

            let saved = try await book.save("demo-pancakes")
            let unsaved = try await book.unsave("demo-pancakes")
            let again = try await book.unsave("demo-pancakes")
            #expect(saved.sync == "queued")
            #expect(unsaved.sync == "cancelled" && !unsaved.saved)
            #expect(again.sync == "unchanged" && !again.changed)
            #expect(try await bed.test.operations().isEmpty)

            _ = try await bed.test.runOnce()
            #expect(try await server.count("saved-recipes/{id}") == 0)
            #expect(try await server.savedIDs(token: token) == ["demo-shakshuka", "demo-dal"])
        }
    }

    @Test func aSaveAlreadyOnItsWayIsFollowedByTheUnsave() async throws {
        try await RecipeServer.with { server in
            let token = try await server.login()
            let bed = try await RecipesTestbed.make(server: server.url, token: token)
            defer { bed.remove() }
            let book = try bed.book
            try await book.refresh()
            try await book.save("demo-pancakes")
            // A save that was handed to the transport cannot be taken back, even when its answer
            // was an error the kernel retries: the unsave follows it.
            server.server.setFaults(
                FaultSettings(failNext: .init(kind: .internalError, count: 1), pathPrefix: "/v1/saved-recipes/")
            )
            #expect(try await bed.test.runOnce().retried == 1)
            try await book.unsave("demo-pancakes")
            #expect(try await bed.queue() == ["save:demo-pancakes", "unsave:demo-pancakes"])
            bed.test.clock.advance(by: 3600)
            #expect(try await bed.test.runOnce().sent == 2)
            #expect(try await server.savedIDs(token: token) == ["demo-shakshuka", "demo-dal"])
        }
    }
}
