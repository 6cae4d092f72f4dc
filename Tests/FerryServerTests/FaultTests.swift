import FerryServer
import Foundation
import Testing

@Suite("Fault injection and statistics")
struct FaultTests {
    @Test func failNextInjectsStatusFaultsWithRetryAfter() async throws {
        let server = try await TestServer.start(seedDemo: false)
        for (kind, status, code) in [
            ("internal_error", 500, "injected_fault"), ("rate_limited", 429, "rate_limited"),
            ("unavailable", 503, "unavailable"),
        ] {
            let set = try await server.request(
                .PUT,
                "/admin/faults",
                json: ["fail_next": ["kind": kind, "count": 2], "retry_after_seconds": 7]
            )
            #expect(set.status == 200)
            for _ in 0..<2 {
                let response = try await server.request(.GET, "/v1/health")
                #expect(response.status == status)
                #expect(response.errorCode == code)
                if status != 500 { #expect(response.header("Retry-After") == "7") }
            }
            #expect(try await server.request(.GET, "/v1/health").status == 200)
        }
        await server.stop()
    }

    @Test func ratesAreSeededAndReproducible() async throws {
        func run() async throws -> [Int] {
            let server = try await TestServer.start(seedDemo: false, faults: FaultSettings(errorRate: 0.5, seed: 7))
            var statuses: [Int] = []
            for _ in 0..<20 { statuses.append(try await server.request(.GET, "/v1/health").status) }
            await server.stop()
            return statuses
        }
        let first = try await run()
        #expect(first == (try await run()))
        #expect(first.contains(500))
        #expect(first.contains(200))
    }

    @Test func faultsSpareAdminAndHonourThePathPrefix() async throws {
        let server = try await TestServer.start(
            seedDemo: false,
            faults: FaultSettings(unavailableRate: 1, pathPrefix: "/v1/movies")
        )
        #expect(try await server.request(.GET, "/v1/health").status == 200)
        #expect(try await server.request(.GET, "/v1/movies").status == 503)
        server.server.setFaults(FaultSettings(unavailableRate: 1))
        #expect(try await server.request(.GET, "/admin/faults").status == 200)
        #expect(try await server.request(.GET, "/v1/health").status == 503)
        let cleared = try await server.request(.PUT, "/admin/faults", json: [String: Any]())
        #expect(cleared.object["unavailable_rate"] as? Double == 0)
        #expect(try await server.request(.GET, "/v1/health").status == 200)
        let invalid = try await server.request(.PUT, "/admin/faults", json: ["error_rate": 2])
        #expect(invalid.status == 400)
        let unknown = try await server.request(.PUT, "/admin/faults", json: ["errors": 1])
        #expect(unknown.errorCode == "unknown_field")
        await server.stop()
    }

    @Test func latencyIsAdded() async throws {
        let server = try await TestServer.start(seedDemo: false, faults: FaultSettings(latencyMilliseconds: 150))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try await server.request(.GET, "/v1/health").status == 200)
        #expect(clock.now - start >= .milliseconds(150))
        await server.stop()
    }

    @Test func droppedConnectionsFailTheClientButTheEffectHappened() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        server.server.setFaults(FaultSettings(failNext: .init(kind: .drop, count: 1)))
        await #expect(throws: (any Error).self) {
            _ = try await server.request(
                .POST,
                "/v1/movies",
                json: ["tmdb_id": 603, "title": "The Matrix"],
                token: token,
                headers: ["Idempotency-Key": "drop-1"]
            )
        }
        let retry = try await server.request(
            .POST,
            "/v1/movies",
            json: ["tmdb_id": 603, "title": "The Matrix"],
            token: token,
            headers: ["Idempotency-Key": "drop-1"]
        )
        #expect(retry.status == 201)
        #expect(retry.header("Idempotent-Replayed") == "true")
        await server.stop()
    }

    @Test func truncatedBodiesFailTheClient() async throws {
        let server = try await TestServer.start(
            seedDemo: false,
            faults: FaultSettings(failNext: .init(kind: .truncate, count: 1))
        )
        await #expect(throws: (any Error).self) {
            _ = try await server.request(.GET, "/tmdb/t/p/w92/ferry-poster-949.png")
        }
        #expect(try await server.request(.GET, "/tmdb/t/p/w92/ferry-poster-949.png").status == 200)
        await server.stop()
    }

    @Test func awayModeRefusesConnectionsUntilTheServerComesBack() async throws {
        let server = try await TestServer.start(seedDemo: false)
        await server.server.goAway()
        await #expect(throws: (any Error).self) {
            _ = try await server.request(.GET, "/v1/health", timeout: .milliseconds(300))
        }
        try await server.server.comeBack()
        #expect(try await server.request(.GET, "/v1/health").status == 200)
        await server.stop()
    }

    @Test func awayModeFromTheAdminEndpointComesBackByItself() async throws {
        let server = try await TestServer.start(seedDemo: false)
        // Two seconds away, watched for up to two minutes: a loaded machine that stalls this
        // loop (or the server's return) for a while still sees the listener gone, then back.
        let response = try await server.request(.POST, "/admin/away", json: ["seconds": 2])
        #expect(response.status == 202)
        var refused = false
        var back = false
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(120)
        while clock.now < deadline && !back {
            do {
                // Short while looking for the listener gone; once it was, long enough for
                // a loaded machine to answer.
                _ = try await server.request(.GET, "/v1/health", timeout: refused ? .seconds(3) : .milliseconds(200))
                back = refused
            } catch {
                refused = true
            }
        }
        #expect(refused)
        #expect(back)
        let bad = try await server.request(.POST, "/admin/away", json: ["seconds": 0])
        #expect(bad.status == 400)
        await server.stop()
    }

    @Test func statsCountRequestsPerTemplate() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        _ = try await server.request(.DELETE, "/admin/stats")
        for id in ["m_demo_heat", "m_demo_dune", "m_x"] {
            _ = try await server.request(.GET, "/v1/movies/\(id)", token: token)
        }
        _ = try await server.request(.GET, "/nowhere")
        let stats = try await server.request(.GET, "/admin/stats")
        let requests = try #require(stats.object["requests"] as? [String: Int])
        #expect(requests["GET /v1/movies/{id}"] == 3)
        #expect(requests["GET <unmatched>"] == 1)
        await server.stop()
    }
}
