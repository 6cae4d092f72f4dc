import FerryServer
import Foundation
import Logging
import SyncKernel

#if canImport(Glibc)
import Glibc
#endif

/// Scenario 9: a running runner over time, on the system clock with the real probe.
/// What it costs while the remote is gone and work waits (a core's share, next to the
/// same process asleep), and how soon queued work is delivered once an outage ends.
struct SoakScenario {
    let harness: Harness
    let report: Report
    let smoke: Bool

    func run() async throws {
        let seconds: Double = smoke ? 1 : 10
        var configuration = FerryServerConfiguration(port: 0, seedDemo: true)
        configuration.passwordHashCost = 4
        configuration.logger = Logger(label: "bench.server", factory: { _ in SwiftLogNoOpLogHandler() })
        let server = try await FerryServer.start(configuration)
        let token = try await Self.login(server.baseURL)
        let runtime = try await harness.runtime(
            in: harness.folder("soak"),
            server: server.baseURL,
            network: true,
            token: token,
            probe: true
        )
        let asleep = try await Self.cpuShare(over: seconds)
        let engine = SyncEngine(runtime: runtime)
        let loop = Task { try await engine.run() }
        defer { loop.cancel() }
        let idle = try await Self.cpuShare(over: seconds)
        await server.goAway()
        try await enqueue(100, in: runtime, tag: "a")
        let offline = try await Self.cpuShare(over: seconds)
        try await server.comeBack()
        try await waitUntilDelivered(runtime)

        // A short outage while writes arrive: how long after it ends they are delivered.
        await server.goAway()
        try await enqueue(100, in: runtime, tag: "b")
        try await Task.sleep(for: .seconds(2))
        try await server.comeBack()
        let back = ContinuousClock.now
        try await waitUntilDelivered(runtime)
        let delay = (ContinuousClock.now - back).seconds
        await server.stop()

        let label = "\(Int(seconds)) s"
        for (metric, share) in [("idle runner, empty queue", idle), ("runner offline, 100 waiting", offline)] {
            report.add(
                Figure(
                    scenario: "soak",
                    size: label,
                    metric: metric + ", CPU",
                    unit: "% of a core",
                    ferry: share,
                    baseline: asleep,
                    baselineName: "the process asleep",
                    target: "< 1%",
                    met: smoke ? nil : share < 1
                )
            )
        }
        report.add(
            Figure(
                scenario: "soak",
                size: "2 s outage",
                metric: "delivered after it ended",
                unit: "s",
                ferry: delay,
                target: "< 2 s",
                met: smoke ? nil : delay < 2
            )
        )
    }

    private func enqueue(_ count: Int, in runtime: FerryRuntime, tag: String) async throws {
        for i in 0..<count {
            try await runtime.commit { db, queue in
                try BenchPlugin.upsert(id: "soak-\(tag)-\(i)", value: "v", now: 0, in: db)
                queue.enqueue(BenchPlugin.operation(entity: "soak-\(tag)-\(i)", value: "v"))
            }
        }
    }

    /// Waits until the runner has delivered every operation (at most a minute).
    private func waitUntilDelivered(_ runtime: FerryRuntime) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let left = try await runtime.store.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM kernel_operations") ?? 0
            }
            if left == 0 { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw BenchError("soak: the runner did not deliver its queue within a minute")
    }

    /// The process's CPU time over `seconds` of wall time, as a share of one core (%).
    static func cpuShare(over seconds: Double) async throws -> Double {
        let before = cpuSeconds()
        let wall = ContinuousClock.now
        try await Task.sleep(for: .seconds(seconds))
        return (cpuSeconds() - before) / (ContinuousClock.now - wall).seconds * 100
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func login(_ base: String) async throws -> String {
        let response = try await HTTPTransport(baseURL: base).send(
            try .json("POST", "/v1/auth/login", body: ["username": "demo", "password": "demo-password"])
        )
        struct Login: Decodable { var accessToken: String }
        return try response.decode(Login.self).accessToken
    }
}
