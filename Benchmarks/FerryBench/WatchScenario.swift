import Foundation
import SyncKernel

/// Scenario 4c: a watched read, and writes by another process. A child process (this
/// executable, `--watch-writer`) changes one entity through the C API every 20-60 ms and
/// prints when each commit returned; the watcher here notes when each new value reached
/// it. The figure is the time between the two, on the wall clock both processes share.
struct WatchScenario {
    let harness: Harness
    let report: Report
    let smoke: Bool

    static let entity = "seed-0"

    func run() async throws {
        let writes = smoke ? 10 : 300
        let folder = harness.folder("watch")
        try await harness.createSchema(in: folder)
        try Prefill.entities(100, path: harness.databasePath(folder))
        let runtime = try await harness.runtime(in: folder)
        let store = runtime.store
        let answers = CachedReader(runtime: runtime).watch(
            .cacheOnly,
            key: "bench.\(Self.entity)",
            cache: { try await PointRead.ferry(Self.entity, store) },
            refresh: {}
        )
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        writer.arguments = ["--watch-writer", harness.databasePath(folder), "\(writes)"]
        let output = Pipe()
        writer.standardOutput = output
        var seen: [Int: Date] = [:]
        try writer.run()
        for try await answer in answers {
            guard answer.value.value.hasPrefix("w-"), let n = Int(answer.value.value.dropFirst(2)) else { continue }
            seen[n] = Date()
            if n == writes { break }
        }
        writer.waitUntilExit()
        let committed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        var latency = Samples()
        for line in committed.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let n = Int(parts[0]), let at = Double(parts[1]), let saw = seen[n] else { continue }
            latency.add(.microseconds(Int64((saw.timeIntervalSince1970 - at) * 1_000_000)))
        }
        let label = "\(writes) writes"
        for (metric, value, target) in [("p50", latency.p50, nil), ("p99", latency.p99, "< 50 ms")] {
            report.add(
                Figure(
                    scenario: "watch, another process writes",
                    size: label,
                    metric: "write to new result \(metric)",
                    unit: "ms",
                    ferry: value / 1000,
                    baseline: nil,
                    baselineName: nil,
                    target: target,
                    met: target == nil || smoke ? nil : value / 1000 < 50
                )
            )
        }
        report.add(
            Figure(
                scenario: "watch, another process writes",
                size: label,
                metric: "values seen (a value replaced before the watcher looked is skipped)",
                unit: "writes",
                ferry: Double(latency.values.count),
                baseline: nil,
                baselineName: nil
            )
        )
    }

    /// The child's part: `count` commits of a new value, 20-60 ms apart, each printed as
    /// `n <unix time>` once committed.
    static func writer(path: String, count: Int) throws {
        let connection = try RawSQLite(path: path, synchronous: "NORMAL")
        for n in 1...count {
            Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.06))
            try connection.run("UPDATE bench_entities SET value = ? WHERE id = ?", [.text("w-\(n)"), .text(entity)])
            FileHandle.standardOutput.write(Data("\(n) \(Date().timeIntervalSince1970)\n".utf8))
        }
    }
}
