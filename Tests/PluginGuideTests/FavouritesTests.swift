import FerryServerTesting
import SyncKernel
import SyncKernelTesting
import Testing

@Suite("The plugin guide: favourites against an in-process FerryServer")
struct FavouritesTests {
    @Test func aSaveMadeOfflineReachesTheServerAndAPullBringsTheRest() async throws {
        let server = try await DemoFerryServer.start()
        let test = try await TestRuntime.make(
            server: server.baseURL,
            yaml: "plugins:\n  favourites: {}\n",
            plugins: [FavouritesPlugin.self],
            credentials: StaticCredentials(token: try await server.login())
        )

        // Offline, the write answers at once and waits in the queue.
        test.connectivity.set(.offline)
        #expect(try await FavouritesPlugin.toggle("demo-pancakes", in: test.runtime) == true)
        #expect(try await test.runOnce().sent == 0)

        // Online, one pass sends it and pulls the demo user's other favourites.
        test.connectivity.set(.online)
        let pass = try await test.runOnce()
        #expect(pass.sent == 1 && !pass.failed)
        let saved = try await test.runtime.store.read { db in
            try ["demo-pancakes", "demo-dal"].map { try FavouritesPlugin.isSaved($0, in: db) }
        }
        #expect(saved == [true, true])
        await server.stop()
    }

}
