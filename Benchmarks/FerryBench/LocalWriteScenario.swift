import Foundation
import GRDB
import SyncKernel

/// Scenario 1: one entity upsert plus its operation, one transaction, with `size` rows in
/// the store; raw C and Ferry take turns, `block` writes each.
///
/// Written back to back, or `inBursts`: five writes, then a pause of 50 ms (outside the
/// timing), which is closer to what a person produces than a full-speed stream.
struct LocalWriteScenario {
    let harness: Harness
    let report: Report
    let smoke: Bool

    static let burst = 5
    /// Writes in a row by one side before the other takes its turn.
    static let block = 250

    func run(size: Int, durability: Durability, inBursts: Bool = false) async throws {
        var writes = smoke ? 50 : (durability == .full ? min(max(size, 1000), 2000) : min(max(size, 1000), 20_000))
        if inBursts { writes = smoke ? 20 : 2000 }
        let pause: Duration = inBursts ? .milliseconds(smoke ? 1 : 50) : .zero
        let warmup = smoke ? 5 : 200
        let folder = harness.folder("local-\(durability.rawValue)-\(size)\(inBursts ? "-bursts" : "")")
        try await harness.createSchema(in: folder)
        try Prefill.entities(size, path: harness.databasePath(folder))
        let sync = durability == .full ? "FULL" : "NORMAL"

        // Raw C and Ferry write to the same file in alternating blocks, so that each meets
        // the same table sizes, WAL and page cache: measured one after the other, the
        // second ran on a store the first had grown and left a WAL in, and the ratio
        // mostly measured the order (a durable write came out 2x raw C that way, 1.15x
        // alternating; docs/performance.md).
        let connection = try RawSQLite(path: harness.databasePath(folder), synchronous: sync)
        let runtime = try await harness.runtime(in: folder, durability: durability)
        let clock = ContinuousClock()
        var raw = Samples(capacity: writes)
        var rawTotal = Duration.zero
        var ferry = Samples(capacity: writes)
        var ferryTotal = Duration.zero
        let block = smoke ? 10 : Self.block
        for first in stride(from: 0, to: warmup + writes, by: block) {
            let indices = first..<min(first + block, warmup + writes)
            for i in indices {
                let start = clock.now
                try connection.transaction {
                    try RawOutbox.localWrite(
                        connection,
                        entity: "raw-\(i)",
                        value: "value \(i)",
                        now: Date().timeIntervalSince1970
                    )
                }
                let elapsed = clock.now - start
                if i >= warmup {
                    raw.add(elapsed)
                    rawTotal += elapsed
                }
                if inBursts, i % Self.burst == Self.burst - 1 { try await Task.sleep(for: pause) }
            }
            for i in indices {
                let entity = "ferry-\(i)"
                let value = "value \(i)"
                let start = clock.now
                try await runtime.commit { db, queue in
                    try BenchPlugin.upsert(id: entity, value: value, now: Date().timeIntervalSince1970, in: db)
                    queue.enqueue(BenchPlugin.operation(entity: entity, value: value))
                }
                let elapsed = clock.now - start
                if i >= warmup {
                    ferry.add(elapsed)
                    ferryTotal += elapsed
                }
                if inBursts, i % Self.burst == Self.burst - 1 { try await Task.sleep(for: pause) }
            }
        }

        let name = "local write \(durability.rawValue.uppercased())\(inBursts ? " bursts" : "")"
        let label = "\(size.formatted) rows"
        let normal = durability == .normal && !inBursts
        report.add(
            Figure(
                scenario: name,
                size: label,
                metric: "p50 latency",
                unit: "µs",
                ferry: ferry.p50,
                baseline: raw.p50,
                baselineName: "raw C",
                target: inBursts ? nil : "ratio <= 1.3",
                met: inBursts || smoke ? nil : ferry.p50 / raw.p50 <= 1.3
            )
        )
        report.add(
            Figure(
                scenario: name,
                size: label,
                metric: "p99 latency",
                unit: "µs",
                ferry: ferry.p99,
                baseline: raw.p99,
                baselineName: "raw C",
                target: normal ? "< 1000 µs" : nil,
                met: normal && !smoke ? ferry.p99 < 1000 : nil
            )
        )
        report.add(
            Figure(
                scenario: name,
                size: label,
                metric: "p99.9 latency",
                unit: "µs",
                ferry: ferry.p999,
                baseline: raw.p999,
                baselineName: "raw C",
                target: normal && size >= 1_000_000 ? "< 1000 µs" : nil,
                met: normal && size >= 1_000_000 && !smoke ? ferry.p999 < 1000 : nil
            )
        )
        report.add(
            Figure(
                scenario: name,
                size: label,
                metric: "max latency",
                unit: "µs",
                ferry: ferry.max,
                baseline: raw.max,
                baselineName: "raw C"
            )
        )
        guard !inBursts else { return }
        let ferryRate = Double(writes) / ferryTotal.seconds
        let rawRate = Double(writes) / rawTotal.seconds
        report.add(
            Figure(
                scenario: name,
                size: label,
                metric: "throughput (\(writes) writes)",
                unit: "ops/s",
                ferry: ferryRate,
                baseline: rawRate,
                baselineName: "raw C",
                target: normal ? "ratio >= 0.5" : nil,
                met: normal && !smoke ? ferryRate / rawRate >= 0.5 : nil
            )
        )
    }
}

extension Int {
    /// 1000 → "1k", 1000000 → "1M".
    var formatted: String {
        if self >= 1_000_000, self % 1_000_000 == 0 { return "\(self / 1_000_000)M" }
        if self >= 1000, self % 1000 == 0 { return "\(self / 1000)k" }
        return "\(self)"
    }
}
