import BookmarksPlugin
import FerryServer
import FerryServerTesting
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// The bookmarks plugin against an in-process FerryServer, whose documents API is all
/// the server needs for a new domain.
@Suite("Bookmarks against FerryServer's documents API")
struct BookmarksTests {
    static func start() async throws -> (RunningFerryServer, TestRuntime, StaticCredentials) {
        let server = try await DemoFerryServer.start()
        let credentials = try await StaticCredentials.signedIn(at: server.baseURL)
        let test = try await TestRuntime.make(
            server: server.baseURL,
            yaml: "plugins:\n  bookmarks: {}\n",
            plugins: [BookmarksPlugin.self],
            credentials: credentials
        )
        return (server, test, credentials)
    }

    static func bookmarks(_ test: TestRuntime) async throws -> [Bookmark] {
        try await test.runtime.store.read { db in try Bookmark.all(in: db) }
    }

    @Test func aBookmarkAddedOfflineReachesTheServerAndAnotherDevicePullsIt() async throws {
        let (server, phone, credentials) = try await Self.start()
        phone.connectivity.set(.offline)
        let swift = try await BookmarksPlugin.add(try Bookmark(url: "https://swift.org", title: "Swift"), in: phone.runtime)
        #expect(try await phone.runOnce().sent == 0)
        phone.connectivity.set(.online)
        #expect(try await phone.runOnce().sent == 1)

        let laptop = try await TestRuntime.make(
            server: server.baseURL,
            yaml: "plugins:\n  bookmarks: {}\n",
            plugins: [BookmarksPlugin.self],
            credentials: credentials
        )
        try await laptop.runOnce()
        #expect(try await Self.bookmarks(laptop) == [swift])

        // Removed on the laptop, gone from the phone after its next pass.
        try await BookmarksPlugin.remove(swift.id, in: laptop.runtime)
        #expect(try await laptop.runOnce().sent == 1)
        try await phone.runOnce()
        #expect(try await Self.bookmarks(phone).isEmpty)
        await server.stop()
    }

    @Test func theSamePageTwiceIsOneBookmarkAndBadAddressesAreRefused() async throws {
        let (server, test, _) = try await Self.start()
        try await BookmarksPlugin.add(try Bookmark(url: "https://swift.org"), in: test.runtime)
        try await BookmarksPlugin.add(try Bookmark(url: "https://swift.org", title: "Swift"), in: test.runtime)
        #expect(try await Self.bookmarks(test).map(\.title) == ["Swift"])
        #expect(try await test.operations().count == 1, "two puts of one bookmark coalesce")
        #expect(throws: FerryError.self) { try Bookmark(url: "not a url") }
        await server.stop()
    }
}
