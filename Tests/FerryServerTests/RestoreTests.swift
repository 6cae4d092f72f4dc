import FerryServer
import FerryServerTesting
import Foundation
import Testing

/// A server restored from a backup has forgotten the changes made after it; the cursors of
/// those changes must not pass for cursors of the changes it makes next.
@Suite("A server restored from a backup")
struct RestoreTests {
    @Test func aCursorFromChangesItForgotIsInvalidEvenAfterAsManyNewChanges() async throws {
        let site = Site()
        defer { site.remove() }
        let first = try await site.start()
        try await Self.put(["before-backup"], on: first)
        await first.stop()
        try site.backUp()

        // Changes after the backup, and a client that followed them.
        let second = try await site.start()
        try await Self.put(["lost-1", "lost-2", "lost-3"], on: second)
        let cursor = try await Self.cursor(after: "0", on: second)
        await second.stop()

        try site.restore()
        let restored = try await site.start()
        try await Self.put((1...6).map { "after-restore-\($0)" }, on: restored)
        let token = try await restored.login()
        let answer = try await restored.request(.GET, "/v1/recipes/changes?since=\(cursor)", token: token)
        #expect(answer.status == 400 && answer.errorCode == "invalid_cursor", "the client would miss the new changes")
        // From the start, the client gets what the server has.
        let ids = try await Self.changedIDs(since: "0", on: restored)
        #expect(ids.contains("after-restore-6") && ids.contains("before-backup") && !ids.contains("lost-1"))
        await restored.stop()
    }

    /// A client pulled before the backup, then wrote: its cursor is one the restored server
    /// issued, so only the change number of its write (`Ferry-Change`, presented as
    /// `seen`) tells it that the server forgot the write (found by `ferry-sim --restores`,
    /// seed 85). It presents the first and last since its pull: an opening of the server
    /// between them, a restart or a restore, makes it pull again.
    @Test func aWriteItForgotIsNamedByTheChangeNumberOfItsAnswer() async throws {
        let site = Site()
        defer { site.remove() }
        let first = try await site.start()
        try await Self.put(["before-backup"], on: first)
        let cursor = try await Self.cursor(after: "0", on: first)
        let kept = try await Self.changeNumber(ofPutting: "kept", on: first)
        await first.stop()
        try site.backUp()

        let second = try await site.start()
        let forgotten = try await Self.changeNumber(ofPutting: "forgotten", on: second)
        await second.stop()
        try site.restore()

        let restored = try await site.start()
        let later = try await Self.changeNumber(ofPutting: "after-restore", on: restored)
        let token = try await restored.login()
        for seen in ["\(kept)", "\(later)"] {
            let answer = try await restored.request(.GET, "/v1/recipes/changes?since=\(cursor)&seen=\(seen)", token: token)
            #expect(answer.status == 200, "seen=\(seen): a change the server holds")
        }
        // Between the first and the last, the server cannot tell a restart from a restore:
        // the client pulls again all the same.
        for seen in ["\(forgotten)", "\(kept),\(forgotten)", "\(forgotten),\(later)", "\(kept),\(later)", "\(later + 1)"] {
            let answer = try await restored.request(.GET, "/v1/recipes/changes?since=\(cursor)&seen=\(seen)", token: token)
            #expect(answer.status == 400 && answer.errorCode == "invalid_cursor", "seen=\(seen)")
        }
        await restored.stop()
    }

    @Test func aCursorKeptAcrossAPlainRestartStillFollowsTheFeed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ferry-restart-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let clock = ServerClock()
        let first = try await TestServer.start(clock: clock) { $0.dataDirectory = directory }
        try await Self.put(["one"], on: first)
        let cursor = try await Self.cursor(after: "0", on: first)
        await first.stop()

        clock.advance(by: 600)
        let second = try await TestServer.start(clock: clock) { $0.dataDirectory = directory }
        try await Self.put(["two"], on: second)
        #expect(try await Self.changedIDs(since: cursor, on: second) == ["two"])
        await second.stop()
    }

    /// A data folder and a backup of it beside; each server starts 600 s after the one
    /// before, as a restore does.
    private struct Site {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-restore-\(UUID().uuidString)")
        let clock = ServerClock()
        var directory: String { folder.appendingPathComponent("data").path }
        var backup: String { folder.appendingPathComponent("backup").path }

        func start() async throws -> TestServer {
            clock.advance(by: 600)
            let directory = directory
            return try await TestServer.start(storage: .sqlite, clock: clock) { $0.dataDirectory = directory }
        }

        /// Copies the data folder of a stopped server, as docs/deployment.md says.
        func backUp() throws { try FileManager.default.copyItem(atPath: directory, toPath: backup) }

        /// Puts the backup in place of the data folder.
        func restore() throws {
            try FileManager.default.removeItem(atPath: directory)
            try FileManager.default.copyItem(atPath: backup, toPath: directory)
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    private static func put(_ ids: [String], on server: TestServer) async throws {
        let token = try await server.login()
        for id in ids {
            let answer = try await server.request(.PUT, "/v1/recipes/\(id)", json: ["title": id], token: token)
            #expect((200..<300).contains(answer.status), "PUT \(id)")
        }
    }

    /// The change number the answer to putting recipe `id` gives (`Ferry-Change`).
    private static func changeNumber(ofPutting id: String, on server: TestServer) async throws -> Int {
        let token = try await server.login()
        let answer = try await server.request(.PUT, "/v1/recipes/\(id)", json: ["title": id], token: token)
        return try #require(answer.headers["ferry-change"].flatMap { Int($0) }, "PUT \(id) names its change")
    }

    /// The cursor after every recipe change since `since`.
    private static func cursor(after since: String, on server: TestServer) async throws -> String {
        try await feed(since: since, on: server).cursor
    }

    private static func changedIDs(since: String, on server: TestServer) async throws -> [String] {
        try await feed(since: since, on: server).ids
    }

    private static func feed(since: String, on server: TestServer) async throws -> (ids: [String], cursor: String) {
        let token = try await server.login()
        var (ids, cursor) = ([String](), since)
        while true {
            let page = try await server.request(.GET, "/v1/recipes/changes?since=\(cursor)&limit=1000", token: token)
            try #require(page.status == 200)
            ids += (page.object["changes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            cursor = try #require(page.object["cursor"] as? String)
            if page.object["has_more"] as? Bool != true { return (ids, cursor) }
        }
    }
}
