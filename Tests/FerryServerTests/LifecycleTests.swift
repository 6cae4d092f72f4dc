import AsyncHTTPClient
import FerryServer
import FerryServerTesting
import Foundation
import SyncKernelTesting
import Testing

@Suite("Lifecycle: run until cancelled, admin from loopback only")
struct LifecycleTests {
    @Test func runServesUntilCancelled() async throws {
        let probe = try await TestServer.start(seedDemo: false)
        let port = probe.server.port
        await probe.stop()
        let configuration = DemoFerryServer.configuration {
            $0.port = port
            $0.seedDemo = false
        }
        let running = Task { try await FerryServer.run(configuration) }
        var answered = false
        for _ in 0..<100 where !answered {
            // A fresh client per attempt: a shared pool backs off after refused connections.
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/health")
            answered = (try? await client.execute(request, timeout: .milliseconds(200)))?.status.code == 200
            try await client.shutdown()
        }
        #expect(answered)
        running.cancel()
        _ = try? await running.value
        await #expect(throws: (any Error).self) {
            _ = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/health"),
                timeout: .milliseconds(300)
            )
        }
    }

    @Test func adminAnswersLoopbackCallersOnly() async throws {
        guard let address = await Self.nonLoopbackIPv4() else { return }  // No other interface to call from.
        let server = try await TestServer.start(seedDemo: false) { $0.host = "0.0.0.0" }
        let port = server.server.port
        let local = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(port)/admin/faults"),
            timeout: .seconds(5)
        )
        #expect(local.status.code == 200)
        let remote = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://\(address):\(port)/admin/faults"),
            timeout: .seconds(5)
        )
        #expect(remote.status.code == 403)
        let body = try await remote.body.collect(upTo: 1 << 16)
        #expect(String(buffer: body).contains("\"forbidden\""))
        let health = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://\(address):\(port)/v1/health"),
            timeout: .seconds(5)
        )
        #expect(health.status.code == 200)
        await server.stop()
    }

    /// This machine's first non-loopback IPv4 address, from `hostname -I`.
    static func nonLoopbackIPv4() async -> String? {
        let hostname = FerryExecutable(
            url: URL(fileURLWithPath: "/usr/bin/hostname"),
            folder: FileManager.default.temporaryDirectory
        )
        guard let output = try? await hostname.run(["-I"]).output else { return nil }
        return output.split(separator: " ").map(String.init).first { $0.contains(".") && !$0.hasPrefix("127.") }
    }
}

@Suite("Lifecycle: graceful stop")
struct GracefulStopTests {
    @Test func stopLetsARequestInFlightFinish() async throws {
        let server = try await TestServer.start(seedDemo: false, faults: FaultSettings(latencyMilliseconds: 300))
        async let response = server.request(.GET, "/v1/health")
        // Wait until the server has received the request, then stop it.
        var received = false
        while !received {
            let stats = try await server.request(.GET, "/admin/stats")
            received = (stats.object["requests"] as? [String: Int])?["GET /v1/health"] == 1
        }
        await server.stop()
        #expect(try await response.status == 200)
    }

    @Test func aStoppedServerDoesNotComeBack() async throws {
        let server = try await TestServer.start(seedDemo: false)
        _ = try await server.request(.POST, "/admin/away", json: ["seconds": 0.2])
        await server.stop()
        await #expect(throws: (any Error).self) { try await server.server.comeBack() }
    }
}
