import Foundation
import Testing

@Suite("GET /metrics in Prometheus's text format")
struct MetricsTests {
    /// The value of the sample named `name` whose labels include all of `labels`.
    private static func sample(_ text: String, _ name: String, _ labels: [String] = []) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + "{") || line.hasPrefix(name + " ") {
            guard labels.allSatisfy({ line.contains($0) }), let value = line.split(separator: " ").last else {
                continue
            }
            return Double(value)
        }
        return nil
    }

    @Test func requestsAreCountedByRouteTemplateAndStatus() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        _ = try await server.request(.GET, "/v1/movies/m_demo_heat", token: token)
        _ = try await server.request(.GET, "/v1/movies/m_demo_dune", token: token)
        _ = try await server.request(.GET, "/v1/movies/nope", token: token)
        _ = try await server.request(.GET, "/v1/no-such-thing")
        let metrics = try await server.request(.GET, "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let text = String(decoding: metrics.body, as: UTF8.self)
        let route = #"route="/v1/movies/{id}""#
        #expect(Self.sample(text, "ferry_http_requests_total", [route, #"status="200""#]) == 2)
        #expect(Self.sample(text, "ferry_http_requests_total", [route, #"status="404""#]) == 1)
        #expect(Self.sample(text, "ferry_http_requests_total", [#"route="<unmatched>""#, #"status="404""#]) == 1)
        #expect(!text.contains("m_demo_heat"), "a raw path became a label")
        #expect(Self.sample(text, "ferry_http_request_duration_seconds_count", [route, #"method="GET""#]) == 3)
        #expect((Self.sample(text, "ferry_database_access_duration_seconds_count") ?? 0) > 0)
        await server.stop()
    }

    @Test func batchSizesAndIdempotentReplaysAreCounted() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let put: [String: Any] = [
            "method": "PUT", "path": "/v1/recipes/metered", "headers": ["Idempotency-Key": "k-metered"],
            "body": ["title": "Metered"],
        ]
        _ = try await server.request(.POST, "/v1/batch", json: ["requests": [put, put, put]], token: token)
        let text = String(decoding: try await server.request(.GET, "/metrics").body, as: UTF8.self)
        #expect(Self.sample(text, "ferry_batch_size_requests_count") == 1)
        #expect(Self.sample(text, "ferry_batch_size_requests_sum") == 3)
        #expect(Self.sample(text, "ferry_idempotent_replays_total") == 2)
        await server.stop()
    }

    @Test func metricsFollowTheAdminRule() async throws {
        let off = try await TestServer.start { $0.admin = .off }
        #expect(try await off.request(.GET, "/metrics").status == 404)
        await off.stop()
        let withToken = try await TestServer.start { $0.admin = .token("s3cret-metrics") }
        #expect(try await withToken.request(.GET, "/metrics").status == 403)
        #expect(try await withToken.request(.GET, "/metrics", token: "wrong").status == 403)
        #expect(try await withToken.request(.GET, "/metrics", token: "s3cret-metrics").status == 200)
        await withToken.stop()
    }

    @Test func twoServersInOneProcessCountApart() async throws {
        let first = try await TestServer.start()
        let second = try await TestServer.start()
        for _ in 0..<3 { _ = try await first.request(.GET, "/v1/health") }
        _ = try await second.request(.GET, "/v1/health")
        let route = #"route="/v1/health""#
        let one = String(decoding: try await first.request(.GET, "/metrics").body, as: UTF8.self)
        let two = String(decoding: try await second.request(.GET, "/metrics").body, as: UTF8.self)
        #expect(Self.sample(one, "ferry_http_requests_total", [route]) == 3)
        #expect(Self.sample(two, "ferry_http_requests_total", [route]) == 1)
        await first.stop()
        await second.stop()
    }
}
