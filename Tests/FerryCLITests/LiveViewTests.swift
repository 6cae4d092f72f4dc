import AsyncHTTPClient
import Foundation
import SyncKernel
import SyncKernelCLI
import SyncKernelTesting
import Testing

@testable import FerryCLI

/// The live view of a running `ferry run`, over real HTTP on loopback: the JSON API gives
/// the CLI's `--json` shapes, `/events` updates by itself, the buttons' endpoints do what
/// the commands do, and `/metrics` counts what happened.
@Suite("Live view of a runner", .timeLimit(.minutes(2)))
struct LiveViewTests {
    @Test func theAPIAnswersWithTheShapesOfTheCommandsJSON() async throws {
        let live = try await LiveViewHarness.start()
        try await live.put("swift")
        let runtime = live.device.runtime

        let status = try await live.request(.GET, "/api/status")
        #expect(status.status == 200)
        let printed = try JSONOutput.encode(try await QueueInspector(runtime: runtime).status())
        #expect(status.body == String(decoding: printed, as: UTF8.self) + "\n", "what `ferry status --json` prints")

        let queue = try await live.request(.GET, "/api/queue")
        let listed = try JSONOutput.encode(["operations": try await QueueCommand.List.operations(in: runtime)])
        #expect(queue.body == String(decoding: listed, as: UTF8.self) + "\n", "what `ferry queue list --json` prints")
        let operation = try #require((try LiveViewHarness.object(queue.body)["operations"] as? [[String: Any]])?.first)
        #expect(operation["entity"] as? String == "swift" && operation["state"] as? String == "pending")

        let conflicts = try LiveViewHarness.object(try await live.request(.GET, "/api/conflicts").body)
        #expect((conflicts["conflicts"] as? [Any])?.isEmpty == true)
        try await live.stop()
    }

    @Test func theEventStreamUpdatesWhenAnOperationIsSent() async throws {
        let live = try await LiveViewHarness.start()
        try await live.put("swift")
        let events = try await EventStreamReader(url: live.base + "/events")
        let first = try await events.next { name, _ in name == "snapshot" }
        #expect((first["operations"] as? [[String: Any]])?.map { $0["entity"] as? String } == ["swift"])

        #expect(try await live.device.runOnce().sent == 1)
        let sent = try await events.next { name, event in name == "sync" && event["event"] as? String == "sent" }
        #expect(sent["entity"] as? String == "swift" && sent["plugin"] as? String == "bookmarks")
        // The store's change and the event may come in either order: a snapshot shows both.
        let after = try await events.next { name, snapshot in
            name == "snapshot"
                && (snapshot["events"] as? [[String: Any]])?.contains { $0["event"] as? String == "sent" } == true
        }
        #expect((after["operations"] as? [Any])?.isEmpty == true)
        events.close()
        try await live.stop()
    }

    @Test func retryOnADeadLetterThroughTheAPISendsItAgain() async throws {
        let live = try await LiveViewHarness.start()
        live.server.setFaults(
            .init(failNext: .init(kind: .internalError, count: 1), pathPrefix: "/v1/domains/bookmarks/documents")
        )
        try await live.put("swift")
        #expect(try await live.device.runOnce().deadLettered == 1)
        let dead = try #require(try await live.device.operations().first)
        #expect(dead.state == .dead)

        let answer = try await live.post("/api/queue/\(dead.shortID)/retry")
        #expect(answer.status == 200, "\(answer.body)")
        let retried = try LiveViewHarness.object(answer.body)
        #expect(retried["retried"] as? Int == 1 && retried["operation"] as? String == dead.id.uuidString.lowercased())
        #expect(try await live.device.operations().first?.state == .pending)
        #expect(try await live.device.runOnce().sent == 1)

        let missing = try await live.post("/api/queue/ffffffff/retry")
        #expect(missing.status == 404)
        let error = try #require(try LiveViewHarness.object(missing.body)["error"] as? [String: Any])
        #expect(error["code"] as? String == "not_found" && error["exit_code"] as? Int == 66)
        try await live.stop()
    }

    @Test func discardAndResolveAnswerAsTheirCommands() async throws {
        let live = try await LiveViewHarness.start()
        try await live.put("swift")
        let operation = try #require(try await live.device.operations().first)
        let discarded = try await live.post("/api/queue/\(operation.shortID)/discard")
        #expect(
            try LiveViewHarness.object(discarded.body)["discarded"] as? String == operation.id.uuidString.lowercased()
        )
        #expect(try await live.device.operations().isEmpty)

        let unknown = try await live.post("/api/conflicts/nothing/resolve", body: #"{"keep": "local"}"#)
        #expect(unknown.status == 404, "\(unknown.body)")
        let badSide = try await live.post("/api/conflicts/nothing/resolve", body: #"{"keep": "both"}"#)
        #expect(badSide.status == 400 && badSide.body.contains(#""code":"usage""#), "\(badSide.body)")
        try await live.stop()
    }

    @Test func metricsReportTheRunnersReadCacheHitRate() async throws {
        let live = try await LiveViewHarness.start()
        let reader = CachedReader(runtime: live.device.runtime)
        for _ in 0..<4 {
            _ = try await reader.read(
                .cacheOnly,
                key: "count",
                cache: { CacheSnapshot(value: 1, hasPendingWrites: false) },
                refresh: {}
            )
        }

        let metrics = try await live.request(.GET, "/metrics")
        let lines = Set(metrics.body.split(separator: "\n").map(String.init))
        #expect(lines.contains(#"ferry_read_cache_reads{result="miss"} 1.0"#), "\(metrics.body)")
        #expect(lines.contains(#"ferry_read_cache_reads{result="hit"} 3.0"#))
        #expect(lines.contains("ferry_read_cache_hit_ratio 0.75"))
        #expect(lines.contains("ferry_read_cache_entries 1.0"))
        try await live.stop()
    }

    @Test func metricsCountSendsDeadLettersAndOperationsByState() async throws {
        let live = try await LiveViewHarness.start()
        live.server.setFaults(
            .init(failNext: .init(kind: .internalError, count: 1), pathPrefix: "/v1/domains/bookmarks/documents")
        )
        try await live.put("dead")
        try await live.device.runOnce()
        try await live.put("swift")
        try await live.device.runOnce()

        let metrics = try await live.request(.GET, "/metrics")
        #expect(metrics.status == 200)
        let lines = Set(metrics.body.split(separator: "\n").map(String.init))
        #expect(lines.contains(#"ferry_sends_total{plugin="bookmarks"} 1"#), "\(metrics.body)")
        #expect(lines.contains(#"ferry_dead_letters_total{plugin="bookmarks"} 1"#))
        #expect(lines.contains(#"ferry_retries_total{plugin="bookmarks"} 0"#))
        #expect(lines.contains(#"ferry_conflicts_total{plugin="bookmarks"} 0"#))
        #expect(lines.contains(#"ferry_operations{plugin="bookmarks",state="dead"} 0.0"#) == false)
        #expect(lines.contains(#"ferry_operations{plugin="bookmarks",state="dead"} 1.0"#))
        #expect(lines.contains(#"ferry_delivery_seconds_count{plugin="bookmarks"} 1"#))
        #expect(lines.contains { $0.hasPrefix("ferry_transfer_bytes_total") })
        try await live.stop()
    }

    @Test func aTokenIsRequiredOnEveryRequestAndComparedWhole() async throws {
        let token = "s3cret-token-of-some-length"
        let live = try await LiveViewHarness.start(token: token)
        #expect(try await live.request(.GET, "/api/status").status == 401)
        #expect(try await live.request(.GET, "/metrics").status == 401)
        #expect(try await live.request(.GET, "/events").status == 401)
        #expect(
            try await live.request(.GET, "/api/status", headers: [("Authorization", "Bearer s3cret")]).status == 401
        )
        #expect(
            try await live.request(.GET, "/api/status", headers: [("Authorization", "Bearer \(token)")]).status == 200
        )
        #expect(try await live.request(.GET, "/?token=\(token)").status == 200, "the page may bring it once")
        #expect(try await live.request(.GET, "/api/status?token=\(token)").status == 401, "only the page")
        try await live.stop()
    }

    @Test func aPostMustBeJSONFromTheViewsOwnOrigin() async throws {
        let live = try await LiveViewHarness.start()
        try await live.put("swift")
        let id = try #require(try await live.device.operations().first).shortID
        // What a form on another site can send: a simple content type, another origin.
        let form = try await live.request(
            .POST,
            "/api/queue/\(id)/discard",
            headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Origin", "http://evil.example")]
        )
        #expect(form.status == 415)
        let crossSite = try await live.request(
            .POST,
            "/api/queue/\(id)/discard",
            headers: [("Content-Type", "application/json"), ("Origin", "http://evil.example")]
        )
        #expect(crossSite.status == 403)
        #expect(try await live.device.operations().count == 1, "nothing was discarded")
        let sameSite = try await live.request(
            .POST,
            "/api/queue/\(id)/discard",
            headers: [("Content-Type", "application/json"), ("Origin", live.base)]
        )
        #expect(sameSite.status == 200, "\(sameSite.body)")
        try await live.stop()
    }

    @Test func thePageIsServedAndUnknownPathsGetTheErrorShape() async throws {
        let live = try await LiveViewHarness.start()
        let page = try await live.request(.GET, "/")
        #expect(page.status == 200 && page.body.contains("<table id=\"operations\">"))
        let missing = try await live.request(.GET, "/api/nothing")
        #expect(missing.status == 404)
        #expect(try LiveViewHarness.object(missing.body)["error"] is [String: Any])
        let badState = try await live.request(.GET, "/api/queue?state=lost")
        #expect(badState.status == 400 && badState.body.contains("pending"), "\(badState.body)")
        try await live.stop()
    }
}
