import Foundation
import SyncKernel

/// Scenario 2: 1, 8 and 64 concurrent writers at `synchronous=FULL`.
struct ConcurrentWritersScenario {
    let harness: Harness
    let report: Report
    let smoke: Bool

    func run() async throws {
        let total = smoke ? 128 : 3200
        let folder = harness.folder("writers")
        try await harness.createSchema(in: folder)
        let path = harness.databasePath(folder)
        report.fsyncProbes["writers.before"] = try FsyncProbe.commitsPerSecond(
            harness: harness,
            commits: smoke ? 20 : 200
        )

        // Baseline: one connection, the same operations 64 to a transaction; measured before
        // and after the Ferry runs (fsync drifts between regimes) and averaged. Transaction
        // `step` writes the entities that the 64 writers write at their `step`-th write:
        // one key per writer, so each transaction touches as many places in the indexes
        // as the writers' commits do. With `inOrder`, a transaction writes 64 neighbouring
        // keys instead, as a single writer would: they share index pages, so SQLite writes
        // fewer pages per transaction. Shown for reference, not as the baseline, and
        // measured last, so that it changes nothing the others measure.
        let raw = try RawSQLite(path: path, synchronous: "FULL")
        func rawBatched(_ tag: String, inOrder: Bool = false) async throws -> Double {
            Double(total)
                / (try await measure {
                    for step in 0..<(total / 64) {
                        try raw.transaction {
                            for writer in 0..<64 {
                                try RawOutbox.localWrite(
                                    raw,
                                    entity: inOrder ? "\(tag)-\(step)-\(writer)" : "\(tag)-\(writer)-\(step)",
                                    value: "v",
                                    now: Date().timeIntervalSince1970
                                )
                            }
                        }
                    }
                }).seconds
        }
        let rawBefore = try await rawBatched("raw-before")
        let rawSingle =
            Double(smoke ? 20 : 400)
            / (try await measure {
                for i in 0..<(smoke ? 20 : 400) {
                    try raw.transaction {
                        try RawOutbox.localWrite(
                            raw,
                            entity: "raw-single-\(i)",
                            value: "v",
                            now: Date().timeIntervalSince1970
                        )
                    }
                }
            }).seconds

        let runtime = try await harness.runtime(in: folder, durability: .full)
        var rates: [Int: Double] = [:]
        for writers in [1, 8, 64] {
            let each = total / writers
            let elapsed = try await measure {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for w in 0..<writers {
                        group.addTask {
                            for i in 0..<each {
                                let entity = "w\(writers)-\(w)-\(i)"
                                try await runtime.commit { db, queue in
                                    try BenchPlugin.upsert(
                                        id: entity,
                                        value: "v",
                                        now: Date().timeIntervalSince1970,
                                        in: db
                                    )
                                    queue.enqueue(BenchPlugin.operation(entity: entity, value: "v"))
                                }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            rates[writers] = Double(total) / elapsed.seconds
        }
        let rawAfter = try await rawBatched("raw-after")
        let rawRate = (rawBefore + rawAfter) / 2
        let rawInOrder = try await rawBatched("raw-in-order", inOrder: true)
        say("raw C 64/txn: \(Int(rawBefore)) ops/s before the Ferry runs, \(Int(rawAfter)) after")
        for writers in [1, 8, 64] {
            let rate = rates[writers] ?? 0
            report.add(
                Figure(
                    scenario: "writers FULL",
                    size: "\(writers) writers",
                    metric: "throughput (\(total) writes)",
                    unit: "ops/s",
                    ferry: rate,
                    baseline: rawRate,
                    baselineName: "raw C, 64/txn",
                    target: writers == 64 ? "ratio >= 0.5" : nil,
                    met: writers == 64 && !smoke ? rate / rawRate >= 0.5 : nil
                )
            )
        }
        report.add(
            Figure(
                scenario: "writers FULL",
                size: "raw",
                metric: "raw C, 1 write/txn",
                unit: "ops/s",
                ferry: rawSingle,
                baseline: rawRate,
                baselineName: "raw C, 64/txn"
            )
        )
        report.add(
            Figure(
                scenario: "writers FULL",
                size: "raw",
                metric: "raw C, 64/txn, keys in order",
                unit: "ops/s",
                ferry: rawInOrder,
                baseline: rawRate,
                baselineName: "raw C, 64/txn"
            )
        )
        report.fsyncProbes["writers.after"] = try FsyncProbe.commitsPerSecond(
            harness: harness,
            commits: smoke ? 20 : 200
        )
    }
}

/// Durable commits per second of a one-row transaction at `synchronous=FULL`: tells
/// which fsync regime the machine is in right now.
enum FsyncProbe {
    static func commitsPerSecond(harness: Harness, commits: Int) throws -> Double {
        let folder = harness.folder("fsync-probe")
        let raw = try RawSQLite(path: folder.appendingPathComponent("probe.sqlite").path, synchronous: "FULL")
        try raw.exec("CREATE TABLE IF NOT EXISTS probe (id INTEGER PRIMARY KEY, value TEXT)")
        let clock = ContinuousClock()
        let start = clock.now
        for i in 0..<commits {
            try raw.run("INSERT INTO probe (value) VALUES (?)", [.text("probe \(i)")])
        }
        let rate = Double(commits) / (clock.now - start).seconds
        say("fsync probe: \(Int(rate)) durable commits/s")
        return rate
    }
}
