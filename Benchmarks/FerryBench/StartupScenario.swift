import Foundation

/// Scenario 9: a write command as a whole process. `ferry recipes toggle` on an offline
/// store, against `ferry --version` (a process that starts and parses its arguments and
/// does nothing else), run alternately, each timed from start to exit. Needs the `ferry`
/// executable built beside this one (`swift build -c release --product ferry`).
struct StartupScenario {
    let harness: Harness
    let report: Report
    let smoke: Bool

    func run() async throws {
        let ferry = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("ferry")
        guard FileManager.default.isExecutableFile(atPath: ferry.path) else {
            say("startup: skipped, no ferry beside ferry-bench (build it with --product ferry)")
            return
        }
        let runs = smoke ? 3 : 40
        let folder = harness.folder("startup")
        try """
        data_dir: data
        server: http://127.0.0.1:9
        log_level: error
        network: {mode: offline}
        plugins:
          recipes: {}
        """.write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let recipe = folder.appendingPathComponent("soup.json")
        try Data(#"{"id": "soup", "title": "Soup"}"#.utf8).write(to: recipe)
        _ = try Self.time(ferry, ["recipes", "add", recipe.path], in: folder)
        var version = Samples()
        var toggle = Samples()
        for _ in 0..<(runs + 3) {
            let quiet = try Self.time(ferry, ["--version"], in: folder)
            let write = try Self.time(ferry, ["recipes", "toggle", "soup"], in: folder)
            version.add(quiet)
            toggle.add(write)
        }
        for (metric, ferry, baseline, target) in [
            ("wall time p50", toggle.p50, version.p50, "ratio <= 1.5"), ("wall time min", toggle.quantile(0), version.quantile(0), nil),
        ] {
            report.add(
                Figure(
                    scenario: "command start-up",
                    size: "\(runs) runs",
                    metric: "recipes toggle, \(metric)",
                    unit: "ms",
                    ferry: ferry / 1000,
                    baseline: baseline / 1000,
                    baselineName: "ferry --version",
                    target: target,
                    met: target == nil || smoke ? nil : ferry <= baseline * 1.5
                )
            )
        }
    }

    /// Runs `ferry arguments` in `folder` to the end; its wall time. A failure is an error.
    static func time(_ ferry: URL, _ arguments: [String], in folder: URL) throws -> Duration {
        let process = Process()
        process.executableURL = ferry
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        process.waitUntilExit()
        let elapsed = clock.now - start
        guard process.terminationStatus == 0 else {
            throw BenchError("ferry \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return elapsed
    }
}
