import Foundation
import SyncKernel

/// Scenario 5: enqueue and choose-next + acknowledge per operation with `pending`
/// operations queued; peak RSS and `ferry status` time at that size.
struct GrowthScenario {
    let harness: Harness
    let report: Report
    let smoke: Bool

    func run(pending: Int) async throws {
        let k = smoke ? 50 : 2000
        let folder = harness.folder("growth-\(pending)")
        try await harness.createSchema(in: folder)
        let path = harness.databasePath(folder)
        try Prefill.pending(pending, path: path)

        // Baseline: raw C on the same file, same rows, same indexes.
        var rawEnqueue = Duration.zero
        var rawChoose = Duration.zero
        var rawStatus = Duration.zero
        do {
            let raw = try RawSQLite(path: path, synchronous: "NORMAL")
            let clock = ContinuousClock()
            for i in 0..<k {
                let start = clock.now
                try raw.transaction {
                    try RawOutbox.localWrite(
                        raw,
                        entity: "raw-enq-\(i)",
                        value: "v",
                        now: Date().timeIntervalSince1970 - 1
                    )
                }
                rawEnqueue += clock.now - start
            }
            for _ in 0..<k {
                let start = clock.now
                var seq: Int64 = 0
                try raw.transaction {
                    try raw.query(
                        "SELECT seq FROM kernel_operations INDEXED BY kernel_operations_ready WHERE state = 'pending' AND next_attempt_at <= ? AND plugin IN ('bench') ORDER BY next_attempt_at, seq LIMIT 1",
                        [.double(Date().timeIntervalSince1970)]
                    ) { seq = RawSQLite.int($0, 0) }
                    try raw.run(
                        "UPDATE kernel_operations SET state = 'in_flight', lease_owner = 'raw', lease_until = ?, dispatched = 1 WHERE seq = ?",
                        [.double(0), .int(seq)]
                    )
                }
                try raw.transaction { try raw.run("DELETE FROM kernel_operations WHERE seq = ?", [.int(seq)]) }
                rawChoose += clock.now - start
            }
            for _ in 0..<3 {
                let start = clock.now
                try raw.query("SELECT state, count(*) FROM kernel_operations WHERE plugin = 'bench' GROUP BY state")
                rawStatus += clock.now - start
            }
        }

        resetPeakRSS()
        // One operation per lease, one lease at a time, as the raw baseline does; concurrent
        // and batched drains are measured after, and in scenario 3.
        let runtime = try await harness.runtime(in: folder, concurrency: 1, batchSize: 1)
        let clock = ContinuousClock()
        var enqueue = Duration.zero
        for i in 0..<k {
            let entity = "ferry-enq-\(i)"
            let start = clock.now
            try await runtime.commit { db, queue in
                try BenchPlugin.upsert(id: entity, value: "v", now: 0, in: db)
                queue.enqueue(BenchPlugin.operation(entity: entity, value: "v"))
            }
            enqueue += clock.now - start
        }
        let engine = SyncEngine(runtime: runtime)
        BenchControl.shared.reset(stopAt: k, engine: engine)
        let drain = try await measure { _ = try await engine.runOnce() }
        let sent = BenchControl.shared.sends
        var status = Duration.zero
        var statusRuns = 0
        for _ in 0..<3 {
            status += try await measure { _ = try await QueueInspector(runtime: runtime).status() }
            statusRuns += 1
        }
        let rss = peakRSS()
        let concurrent = try await drainConcurrently(k, in: folder)

        let point = GrowthPoint(
            pending: pending,
            enqueueMicros: enqueue.seconds * 1e6 / Double(k),
            chooseAckMicros: drain.seconds * 1e6 / Double(max(sent, 1)),
            rawEnqueueMicros: rawEnqueue.seconds * 1e6 / Double(k),
            rawChooseAckMicros: rawChoose.seconds * 1e6 / Double(k)
        )
        report.growth.append(point)
        let label = "\(pending.formatted) pending"
        let first = report.growth.first { $0.pending == report.growth.map(\.pending).min() }
        let large = pending >= 1_000_000 && !smoke
        report.add(
            Figure(
                scenario: "growth",
                size: label,
                metric: "enqueue per op",
                unit: "µs",
                ferry: point.enqueueMicros,
                baseline: point.rawEnqueueMicros,
                baselineName: "raw C",
                target: large ? "<= 1.5x the 1k cost" : nil,
                met: large ? first.map { point.enqueueMicros <= 1.5 * $0.enqueueMicros } : nil
            )
        )
        report.add(
            Figure(
                scenario: "growth",
                size: label,
                metric: "choose-next + ack per op",
                unit: "µs",
                ferry: point.chooseAckMicros,
                baseline: point.rawChooseAckMicros,
                baselineName: "raw C",
                target: large ? "<= 1.5x the 1k cost" : "ratio <= 1.5",
                met: smoke
                    ? nil
                    : large
                        ? first.map { point.chooseAckMicros <= 1.5 * $0.chooseAckMicros }
                        : point.chooseAckMicros <= 1.5 * point.rawChooseAckMicros
            )
        )
        report.add(
            Figure(
                scenario: "growth",
                size: label,
                metric: "choose-next + ack per op, 8 in flight",
                unit: "µs",
                ferry: concurrent,
                baseline: point.rawChooseAckMicros,
                baselineName: "raw C"
            )
        )
        let statusMillis = status.seconds * 1000 / Double(statusRuns)
        report.add(
            Figure(
                scenario: "growth",
                size: label,
                metric: "status (QueueInspector)",
                unit: "ms",
                ferry: statusMillis,
                baseline: rawStatus.seconds * 1000 / 3,
                baselineName: "raw count(*) GROUP BY",
                target: large ? "< 250 ms" : nil,
                met: large ? statusMillis < 250 : nil
            )
        )
        report.add(
            Figure(
                scenario: "growth",
                size: label,
                metric: "peak RSS (open, \(k) enqueue+drain, status)",
                unit: "MB",
                ferry: Double(rss) / 1_048_576,
                baseline: nil,
                baselineName: nil,
                target: large ? "< 150 MB" : nil,
                met: large ? Double(rss) / 1_048_576 < 150 : nil
            )
        )
    }

    /// Microseconds per operation for `count` more operations drained with the default
    /// eight deliveries in flight: on a remote that answers at once, the deliveries only
    /// contend for the writer, so this costs more per operation than one at a time.
    private func drainConcurrently(_ count: Int, in folder: URL) async throws -> Double {
        let runtime = try await harness.runtime(in: folder, batchSize: 1)
        for i in 0..<count {
            let entity = "ferry-concurrent-\(i)"
            try await runtime.commit { db, queue in
                try BenchPlugin.upsert(id: entity, value: "v", now: 0, in: db)
                queue.enqueue(BenchPlugin.operation(entity: entity, value: "v"))
            }
        }
        let engine = SyncEngine(runtime: runtime)
        BenchControl.shared.reset(stopAt: count, engine: engine)
        let drain = try await measure { _ = try await engine.runOnce() }
        return drain.seconds * 1e6 / Double(max(BenchControl.shared.sends, 1))
    }
}
