import AsyncHTTPClient
import FerryServer
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import SyncKernel

/// Scenario 3: operations delivered per second to FerryServer on loopback, through the
/// kernel's engine and through a plain request loop on the same endpoint; on SQLite, and
/// on PostgreSQL too when `FERRY_BENCH_POSTGRES_URL` names a database (targets are judged
/// on SQLite only).
struct DrainScenario {
    let harness: Harness
    let report: Report
    let smoke: Bool
    /// The server's database when it is PostgreSQL's; SQLite in memory otherwise.
    var postgres: PostgresLocation? = nil

    private var scenario: String { postgres == nil ? "drain" : "drain on PostgreSQL" }
    /// Whether targets are judged: on SQLite, in a full run.
    private var judged: Bool { postgres == nil && !smoke }

    /// The most operations one drain measures.
    static let most = 5000

    func run(count requested: Int) async throws {
        let count = smoke ? 40 : min(requested, Self.most)
        try await Self.withServer(postgres: postgres) { plain in
            let target = (url: plain.base, token: plain.token)

            // Warm up the connection pool and the server's code paths, outside the timings.
            _ = try await plain.health(20)
            _ = try await plain.puts(20, prefix: "warmup")
            let health = try await plain.health(count)
            let healthAtOnce = try await plain.health(count * 4, loops: 8)
            let single = try await plain.puts(count, prefix: "plain")
            let batched = try await plain.batched(count, size: 100, prefix: "batch")

            let oneAtATime = try await kernelDrain(
                count: count,
                concurrency: 1,
                batchSize: 1,
                server: target,
                tag: "k1"
            )
            let concurrent = try await kernelDrain(
                count: count,
                concurrency: 8,
                batchSize: 1,
                server: target,
                tag: "k8"
            )
            let batchedKernel = try await kernelDrain(
                count: count,
                concurrency: 1,
                batchSize: 100,
                server: target,
                tag: "kb"
            )
            let batchedConcurrent = try await kernelDrain(
                count: count,
                concurrency: 8,
                batchSize: 100,
                server: target,
                tag: "kb8"
            )

            let label = "\(count.formatted) ops"
            report.add(
                Figure(
                    scenario: scenario,
                    size: label,
                    metric: "kernel, one at a time",
                    unit: "ops/s",
                    ferry: oneAtATime,
                    baseline: single,
                    baselineName: "plain PUT loop",
                    target: judged ? "ratio >= 0.5" : nil,
                    met: judged ? oneAtATime / single >= 0.5 : nil
                )
            )
            report.add(
                Figure(
                    scenario: scenario,
                    size: label,
                    metric: "kernel, concurrency 8",
                    unit: "ops/s",
                    ferry: concurrent,
                    baseline: single,
                    baselineName: "plain PUT loop"
                )
            )
            report.add(
                Figure(
                    scenario: scenario,
                    size: label,
                    metric: "plain /v1/batch loop (100/req)",
                    unit: "ops/s",
                    ferry: batched,
                    baseline: single,
                    baselineName: "plain PUT loop"
                )
            )
            report.add(
                Figure(
                    scenario: scenario,
                    size: label,
                    metric: "kernel batched (100/req), 1 in flight",
                    unit: "ops/s",
                    ferry: batchedKernel,
                    baseline: oneAtATime,
                    baselineName: "kernel one at a time"
                )
            )
            report.add(
                Figure(
                    scenario: scenario,
                    size: label,
                    metric: "kernel batched, defaults (8 in flight)",
                    unit: "ops/s",
                    ferry: batchedConcurrent,
                    baseline: oneAtATime,
                    baselineName: "kernel one at a time",
                    target: judged ? "ratio >= 5" : nil,
                    met: judged ? batchedConcurrent / oneAtATime >= 5 : nil
                )
            )
            report.add(
                Figure(
                    scenario: scenario,
                    size: label,
                    metric: "kernel batched, defaults, vs batch loop",
                    unit: "ops/s",
                    ferry: batchedConcurrent,
                    baseline: batched,
                    baselineName: "plain /v1/batch loop",
                    // The server's target for the kernel's drain to it (issue 16).
                    target: judged ? ">= 20000, ratio >= 0.5" : nil,
                    met: judged ? batchedConcurrent >= 20_000 && batchedConcurrent / batched >= 0.5 : nil
                )
            )
            let perPut = 1e6 / single
            let perHealth = 1e6 / health
            report.add(
                Figure(
                    scenario: scenario,
                    size: label,
                    metric: "server's own cost per PUT",
                    unit: "µs",
                    ferry: max(0, perPut - perHealth),
                    baseline: perPut,
                    baselineName: "whole PUT round trip"
                )
            )
            // A batch of 100 costs one round trip (the health loop's) plus the server's work
            // on its 100 writes: what is left, per write.
            report.add(
                Figure(
                    scenario: scenario,
                    size: label,
                    metric: "server's own cost per write in a batch of 100",
                    unit: "µs",
                    ferry: max(0, (1e6 / batched) - perHealth / 100),
                    baseline: 1e6 / batched,
                    baselineName: "whole batch round trip per write",
                    target: judged ? "<= 50" : nil,
                    met: judged ? (1e6 / batched) - perHealth / 100 <= 50 : nil
                )
            )
            report.add(
                Figure(
                    scenario: scenario,
                    size: label,
                    metric: "HTTP floor: GET /v1/health loop",
                    unit: "req/s",
                    ferry: health,
                    baseline: nil,
                    baselineName: nil
                )
            )
            // The server's rate: eight loops at once, the client in this process beside it.
            report.add(
                Figure(
                    scenario: scenario,
                    size: label,
                    metric: "GET /v1/health, 8 loops at once",
                    unit: "req/s",
                    ferry: healthAtOnce,
                    baseline: health,
                    baselineName: "one loop",
                    target: judged ? ">= 10000" : nil,
                    met: judged ? healthAtOnce >= 10_000 : nil
                )
            )
        }
    }

    /// Runs `body` with a plain loop signed in as the demo user to a fresh FerryServer on
    /// loopback; the client and the server are stopped after it, whatever it did.
    static func withServer(
        postgres: PostgresLocation? = nil,
        _ body: (PlainLoop) async throws -> Void
    ) async throws {
        let server = try await FerryServer.start(serverConfiguration(port: 0, postgres: postgres))
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let token = try await login(client, base: server.baseURL)
            try await body(PlainLoop(client: client, base: server.baseURL, token: token))
        } catch {
            try? await client.shutdown()
            await server.stop()
            throw error
        }
        try await client.shutdown()
        await server.stop()
    }

    /// The server every drain figure is measured against: in memory, the demo users (`demo` /
    /// `demo-password`), cheap password hashing, errors-only logging.
    static func serverConfiguration(port: Int, postgres: PostgresLocation? = nil) -> FerryServerConfiguration {
        var configuration = FerryServerConfiguration(port: port, seedDemo: true)
        configuration.postgres = postgres
        configuration.passwordHashCost = 4
        var serverLogger = Logger(label: "bench.server")
        serverLogger.logLevel = .error
        configuration.logger = serverLogger
        return configuration
    }

    /// `ferry-bench --serve PORT`: that server alone, until the process is stopped, so that
    /// another client (`Benchmarks/http-loop.py`) can drive it and its CPU time can be read
    /// apart from the client's.
    static func serve(port: Int) async throws -> Never {
        let server = try await FerryServer.start(serverConfiguration(port: port))
        print("serving \(server.baseURL) (pid \(getpid()))")
        while true { try await Task.sleep(for: .seconds(3600)) }
    }

    private func kernelDrain(
        count: Int,
        concurrency: Int,
        batchSize: Int,
        server: (url: String, token: String),
        tag: String
    ) async throws -> Double {
        let folder = harness.folder("drain-\(tag)")
        let runtime = try await harness.runtime(
            in: folder,
            server: server.url,
            concurrency: concurrency,
            batchSize: batchSize,
            network: true,
            token: server.token
        )
        var done = 0
        while done < count {
            let chunk = (done..<min(count, done + 500)).map {
                BenchPlugin.operation(entity: "\(tag)-\($0)", value: "Recipe \($0)")
            }
            try await runtime.commit { _, queue in for operation in chunk { queue.enqueue(operation) } }
            done += chunk.count
        }
        let engine = SyncEngine(runtime: runtime)
        BenchControl.shared.reset()
        let elapsed = try await measure { _ = try await engine.runOnce() }
        let sent = BenchControl.shared.sends
        guard sent == count else {
            let queue = try await QueueInspector(runtime: runtime).status().plugins.map {
                "\($0.plugin): \($0.pending) pending, \($0.backingOff) backing off, \($0.waitingForConnectivity) unanswered, \($0.dead) dead"
            }
            throw BenchError("the kernel drain made \(sent) sends for \(count) operations (\(tag)); after it: \(queue)")
        }
        return Double(sent) / elapsed.seconds
    }

    private static func login(_ client: HTTPClient, base: String) async throws -> String {
        var request = HTTPClientRequest(url: base + "/v1/auth/login")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: #"{"username":"demo","password":"demo-password"}"#))
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        struct Login: Decodable { var access_token: String }
        return try JSONDecoder().decode(Login.self, from: Data(buffer: body)).access_token
    }
}

/// The HTTP baseline: a plain sequential loop of requests with AsyncHTTPClient.
struct PlainLoop {
    let client: HTTPClient
    let base: String
    let token: String

    /// Sends one request and returns its answer's body; throws for any status but 2xx.
    @discardableResult
    func send(_ method: HTTPMethod, _ path: String, body: String?, key: String?) async throws -> Data {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let key { request.headers.add(name: "Idempotency-Key", value: key) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: .seconds(30))
        let answer = try await response.body.collect(upTo: 16 << 20)
        guard (200..<300).contains(response.status.code) else {
            throw BenchError("\(method) \(path) answered \(response.status.code)")
        }
        return Data(buffer: answer)
    }

    /// `GET /v1/health` requests a second, `loops` loops at once (AsyncHTTPClient keeps up
    /// to 8 connections to a server: one loop each).
    func health(_ count: Int, loops: Int = 1) async throws -> Double {
        Double(count)
            / (try await measure {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for loop in 0..<loops {
                        let share = count / loops + (loop < count % loops ? 1 : 0)
                        group.addTask {
                            for _ in 0..<share { try await send(.GET, "/v1/health", body: nil, key: nil) }
                        }
                    }
                    try await group.waitForAll()
                }
            }).seconds
    }

    func puts(_ count: Int, prefix: String) async throws -> Double {
        Double(count)
            / (try await measure {
                for i in 0..<count {
                    try await send(
                        .PUT,
                        "/v1/recipes/\(prefix)-\(i)",
                        body: #"{"title":"Recipe \#(i)"}"#,
                        key: UUID().uuidString.lowercased()
                    )
                }
            }).seconds
    }

    /// Writes a second in batches of `size`, the batches' bodies written before the clock
    /// starts (the figure is the server's and the round trip's, not the client's JSON).
    func batched(_ count: Int, size: Int, prefix: String) async throws -> Double {
        let bodies = stride(from: 0, to: count, by: size).map { first in
            let items = (first..<min(count, first + size)).map { i in
                #"{"method":"PUT","path":"/v1/recipes/\#(prefix)-\#(i)","headers":{"Idempotency-Key":"\#(UUID().uuidString.lowercased())"},"body":{"title":"Recipe \#(i)"}}"#
            }
            return #"{"requests":[\#(items.joined(separator: ","))]}"#
        }
        return Double(count)
            / (try await measure {
                for body in bodies { try await send(.POST, "/v1/batch", body: body, key: nil) }
            }).seconds
    }
}
