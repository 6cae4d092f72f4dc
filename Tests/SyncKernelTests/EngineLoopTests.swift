import FerryServerTesting
import Foundation
@testable import SyncKernel
import SyncKernelTesting
import Synchronization
import Testing

/// The running loop on a test clock: it sleeps when there is nothing it can do, and probes
/// sooner while work waits for connectivity.
@Suite("Engine: the loop sleeps and probes", .timeLimit(.minutes(3)))
struct EngineLoopTests {
    @Test func anOfflineLoopWithDueWorkSleepsInsteadOfSpinning() async throws {
        let counting = CountingConnectivity(.offline)
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9", monitor: counting)
        _ = try await TestPlugin.put("a", "v", in: test.runtime)
        try await Self.running(test.runtime) {
            try await Wait.until { test.clock.sleeperCount == 1 }
            let asked = counting.asked
            for _ in 0..<20 {
                test.clock.advance(by: 0.5)
                try await Wait.until { test.clock.sleeperCount == 1 }
            }
            // Once a pass (every half second, the poll), not thousands of times.
            #expect(counting.asked - asked <= 20 * 3)
        }
    }

    @Test func workThatCannotBeChosenNowDoesNotMakeTheLoopSpin() async throws {
        let metered = CountingConnectivity(ConnectivityState(reachable: true, interface: .cellular, metered: true))
        let test = try await TestRuntime.make(server: "http://127.0.0.1:9", monitor: metered)
        _ = try await TestPlugin.enqueue("upload", "big", in: test.runtime)
        try await Self.running(test.runtime) {
            try await Wait.until { test.clock.sleeperCount == 1 }
        }
    }

    @Test func whileWorkWaitsTheProbeBacksOffFromHalfASecondToTheInterval() async throws {
        let clock = TestClock()
        let probes = ProbeLog(clock: clock)
        let runtime = try await Self.runtime(clock: clock, executor: probes)
        _ = try await TestPlugin.put("a", "v", in: runtime)
        let start = clock.now()
        try await Self.running(runtime, for: 46, on: clock)
        #expect(probes.times(since: start) == [0, 0.5, 1, 2, 4, 8, 16, 31, 46])
    }

    @Test func withNothingWaitingTheProbeKeepsItsInterval() async throws {
        let clock = TestClock()
        let probes = ProbeLog(clock: clock)
        let runtime = try await Self.runtime(clock: clock, executor: probes)
        let start = clock.now()
        try await Self.running(runtime, for: 46, on: clock)
        #expect(probes.times(since: start) == [0, 15, 30, 45])
    }

    @Test func aDeclaredDomainPullsAsOftenAsItsOwnPullEverySays() async throws {
        try await TestPluginServer.with { server, url in
            let yaml = """
                sync: {pull_every: 300s}
                domains:
                  notes:
                    pull: /items
                    pull_every: 60s
                    operations:
                      put: {method: PUT, path: "/items/{entity}"}
                """
            let test = try await TestRuntime.make(server: url, yaml: yaml, plugins: [])
            try await Self.running(test.runtime) {
                try await Wait.until { test.clock.sleeperCount == 1 }
                for _ in 0..<(130 * 2) {
                    test.clock.advance(by: 0.5)
                    try await Wait.until { test.clock.sleeperCount == 1 }
                }
            }
            #expect(server.count("GET /items") == 3, "at 0, 60 and 120 s")
        }
    }

    /// Runs the engine's loop while `body` runs.
    static func running(_ runtime: FerryRuntime, _ body: () async throws -> Void) async throws {
        let engine = SyncEngine(runtime: runtime)
        let loop = Task { try await engine.run() }
        defer { loop.cancel() }
        try await body()
    }

    /// Runs the engine's loop for `seconds` of `clock`, a quarter of a second at a time,
    /// letting the loop go back to sleep after each step.
    static func running(_ runtime: FerryRuntime, for seconds: Int, on clock: TestClock) async throws {
        try await running(runtime) {
            try await Wait.until { clock.sleeperCount == 1 }
            for _ in 0..<(seconds * 4) {
                clock.advance(by: 0.25)
                try await Wait.until { clock.sleeperCount == 1 }
            }
        }
    }

    /// A runtime whose connectivity is the real probe (interval 15 s) over `executor`, on a
    /// machine with a wired link that is up.
    static func runtime(clock: TestClock, executor: any HTTPExecutor) async throws -> FerryRuntime {
        var configuration = try FerryConfiguration.parse(
            "server: http://127.0.0.1:9\nnetwork: {probe_interval: 15s}\nplugins:\n  items: {}\n",
            file: "test.yaml"
        )
        configuration.kernel.server = "http://127.0.0.1:9"
        var options = FerryRuntime.Options()
        options.clock = clock
        options.executor = executor
        options.connectivity = ProbeConnectivity(
            remotes: { ["http://127.0.0.1:9"] },
            interval: 15,
            interfaces: try FakeInterfaces.make([("eth0", true, false)]),
            clock: clock,
            executor: executor
        )
        return try await FerryRuntime.open(
            configuration: configuration,
            pluginTypes: [TestPlugin.self],
            options: options,
            store: try FerryStore.inMemory(migrations: TestPlugin.migrations)
        )
    }
}

/// Connectivity a test sets, counting how often the engine asks.
final class CountingConnectivity: ConnectivityMonitor {
    private let state: Mutex<(value: ConnectivityState, asked: Int)>

    init(_ value: ConnectivityState) { state = Mutex((value, 0)) }

    var asked: Int { state.withLock { $0.asked } }

    func current() async -> ConnectivityState {
        state.withLock { state in
            state.asked += 1
            return state.value
        }
    }
}

/// A remote that never answers, recording when each health probe went out.
final class ProbeLog: HTTPExecutor {
    private let clock: TestClock
    private let sent = Mutex<[Date]>([])

    init(clock: TestClock) { self.clock = clock }

    func times(since start: Date) -> [TimeInterval] {
        sent.withLock { $0.map { $0.timeIntervalSince(start) } }
    }

    func execute(_ request: SyncKernel.PreparedRequest, maxBodyBytes: Int) async throws -> SyncKernel.HTTPResponse {
        if request.url.hasSuffix("/v1/health") { sent.withLock { $0.append(clock.now()) } }
        throw TransportFailure(reason: "\(request.method) \(request.url): connection refused")
    }
}
