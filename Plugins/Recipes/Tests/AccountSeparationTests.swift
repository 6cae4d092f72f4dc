import Foundation
import RecipesPlugin
import SyncKernel
import SyncKernelTesting
import Testing

/// Two people on one device: local data belongs to the account signed in, and nobody's
/// work is ever sent as someone else's.
@Suite("Recipes: accounts never mix on one store")
struct AccountSeparationTests {
    @Test func aSaveMadeWhileSignedOutIsHeldUntilTheNextSignInKeepsIt() async throws {
        try await RecipeServer.with { server in
            let demo = try await server.login()
            let credentials = StaticCredentials(token: demo, account: "u_demo")
            let bed = try await RecipesTestbed.make(server: server.url, token: nil, credentials: credentials)
            defer { bed.remove() }
            let book = try bed.book
            try await bed.test.runOnce()

            credentials.signOut()
            try await book.save("demo-pancakes")
            let sam = try await server.login("sam", "sam-password")
            credentials.signIn(sam, as: "u_sam")
            #expect(try await bed.test.runOnce().sent == 0, "sent silently as sam's")
            #expect(try await server.savedIDs(token: sam).contains("demo-pancakes") == false)
            let held = try #require(try await bed.test.operations().first)
            let why = try await QueueInspector(runtime: bed.runtime).explain(held).rendered
            #expect(why.contains("held") && why.contains("nobody was signed in"), "\(why)")
            let counted = try await QueueInspector(runtime: bed.runtime).status().plugins.first
            #expect(counted?.heldForAccount == 1 && counted?.pending == 1, "status calls the held save ready")
            // Demo's saves left with demo: sam's list is sam's own.
            let shown = Set(try await book.list(savedOnly: true).recipes.map(\.id))
            #expect(shown.isDisjoint(with: ["demo-shakshuka", "demo-dal"]), "\(shown)")

            // The sign-in keeps it for sam (as `ferry auth login` asks): now it goes, as sam's.
            #expect(try await bed.runtime.adoptSignedOutWork(for: "u_sam") == 1)
            #expect(try await QueueInspector(runtime: bed.runtime).status().plugins.first?.heldForAccount == 0)
            #expect(try await bed.test.runOnce().sent == 1)
            #expect(try await server.savedIDs(token: sam).contains("demo-pancakes"))
            #expect(try await server.savedIDs(token: demo).contains("demo-pancakes") == false)
        }
    }

    @Test func anotherAccountsWorkWaitsForItAndItsDataComesBackWithIt() async throws {
        try await RecipeServer.with { server in
            let demo = try await server.login()
            let credentials = StaticCredentials(token: demo, account: "u_demo")
            let bed = try await RecipesTestbed.make(server: server.url, token: nil, credentials: credentials)
            defer { bed.remove() }
            let book = try bed.book
            try await bed.test.runOnce()
            bed.test.connectivity.set(.offline)
            try await book.save("demo-pancakes")

            let sam = try await server.login("sam", "sam-password")
            credentials.signIn(sam, as: "u_sam")
            bed.test.connectivity.set(.online)
            #expect(try await bed.test.runOnce().sent == 0)
            let samsList = try await book.list(savedOnly: true).recipes
            #expect(samsList.allSatisfy { $0.id != "demo-shakshuka" && $0.id != "demo-pancakes" }, "\(samsList.map(\.id))")
            let held = try #require(try await bed.test.operations().first)
            let why = try await QueueInspector(runtime: bed.runtime).explain(held).rendered
            #expect(why.contains("held for account u_demo"), "\(why)")

            credentials.signIn(try await server.login(), as: "u_demo")
            #expect(try await bed.test.runOnce().sent == 1)
            #expect(try await server.savedIDs(token: demo).contains("demo-pancakes"))
            #expect(try await server.savedIDs(token: sam).contains("demo-pancakes") == false)
            let demosList = Set(try await book.list(savedOnly: true).recipes.map(\.id))
            #expect(demosList == ["demo-shakshuka", "demo-dal", "demo-pancakes"], "\(demosList)")
        }
    }
}
