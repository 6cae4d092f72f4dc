import FerryServerTesting
import Foundation
import GRDB
import Synchronization
import SyncKernelTesting
import Testing

@testable import SyncKernel

/// A feed's first pull, after writes its plugin sent before it: the change numbers of
/// their answers (`seen`, docs/protocol.md §6) have no cursor to wait beside, and still
/// tell a server restored from a backup that forgot them that it must say so.
@Suite("A feed's first pull")
struct FirstPullTests {
    @Test func aWriteSentBeforeTheFeedWasEverPulledThatARestoredServerForgotLeavesTheDevice() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ferry-first-pull-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let backup = folder.appendingPathComponent("backup").path
        let before = try await DemoFerryServer.start(dataDirectory: data)
        let credentials = try await StaticCredentials.signedIn(at: before.baseURL)
        await before.stop()
        try FileManager.default.copyItem(atPath: data, toPath: backup)

        // The note is sent; the pull after it gets no answer.
        let link = RedirectingExecutor()
        let after = try await DemoFerryServer.start(dataDirectory: data)
        link.point(at: after.baseURL, pulls: false)
        let test = try await TestRuntime.make(
            server: RedirectingExecutor.base,
            yaml: "domains:\n  notes: {}\n",
            plugins: [],
            credentials: credentials,
            executor: link
        )
        let note = Data(#"{"title":"a"}"#.utf8)
        _ = try await test.runtime.submitDeclared(domain: "notes", kind: "put", entity: "a", body: note)
        #expect(try await test.runOnce().sent == 1)
        let cursor = try await test.runtime.store.read { db in
            try SyncCursors.cursor(plugin: "notes", name: "default", in: db)
        }
        #expect(cursor == nil, "the feed was never pulled")
        #expect(try await notes(test) == ["a"])
        await after.stop()

        // Restored from the backup made before the note.
        try FileManager.default.removeItem(atPath: data)
        try FileManager.default.copyItem(atPath: backup, toPath: data)
        let restored = try await DemoFerryServer.start(dataDirectory: data)
        link.point(at: restored.baseURL, pulls: true)
        let pulled = try await test.runOnce()
        #expect(pulled.pullFailures.isEmpty)
        #expect(try await notes(test) == [], "the device shows a note the server does not have")
        #expect(link.asked.contains { $0.contains("/v1/domains/notes/changes") && $0.contains("seen=") })
        await restored.stop()
    }

    @Test func aChangeNumberNotedDuringAFeedsFirstPullWaitsBesideItsNewCursor() async throws {
        let store = try FerryStore.inMemory(migrations: [])
        let seen = try await store.write { db in
            try SyncCursors.noteSeen(4...4, plugin: "p", in: db)
            // The first pull presented 4; a write answered during it gave 9.
            try SyncCursors.noteSeen(9...9, plugin: "p", in: db)
            try SyncCursors.save("c1", layout: nil, checked: 4...4, plugin: "p", name: "feed", now: Date(), in: db)
            return (
                try SyncCursors.seen(plugin: "p", name: "feed", in: db),
                try SyncCursors.seen(plugin: "p", name: SyncCursors.unpulled, in: db)
            )
        }
        #expect(seen.0 == 4...9, "the next pull of the feed presents what came after 4")
        #expect(seen.1 == 4...9, "a feed still never pulled presents every number")
    }

    @Test func noFeedMayTakeTheKernelsNameForFeedsNeverPulled() async throws {
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9")
        let context = try #require(test.runtime.context(for: "items"))
        await #expect(throws: FerryError.self) {
            try await context.follow("/items", cursor: SyncCursors.unpulled) { _, _ in .skipped }
        }
    }

    private func notes(_ test: TestRuntime) async throws -> [String] {
        try await test.runtime.store.read { db in try DeclaredEntities.list(domain: "notes", in: db).map(\.entity) }
    }
}

/// Sends every request to whichever server is up now, and refuses the pulls when told to.
final class RedirectingExecutor: HTTPExecutor {
    static let base = "http://server.test"
    private let state = Mutex((target: "", pulls: true, asked: [String]()))
    private let real = AsyncHTTPExecutor()

    /// Every URL asked for, in order.
    var asked: [String] { state.withLock { $0.asked } }

    func point(at target: String, pulls: Bool) { state.withLock { ($0.target, $0.pulls) = (target, pulls) } }

    func execute(_ request: SyncKernel.PreparedRequest, maxBodyBytes: Int) async throws -> SyncKernel.HTTPResponse {
        let (target, pulls) = state.withLock { state in
            state.asked.append(request.url)
            return (state.target, state.pulls)
        }
        guard pulls || !request.url.contains("/changes") else {
            throw TransportFailure(reason: "\(request.method) \(request.url): no answer")
        }
        var redirected = request
        redirected.url = target + request.url.dropFirst(Self.base.count)
        return try await real.execute(redirected, maxBodyBytes: maxBodyBytes)
    }
}
