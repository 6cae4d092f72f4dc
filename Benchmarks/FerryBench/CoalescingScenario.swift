import Foundation
import GRDB
import SyncKernel

/// Scenario 6: 10k toggles of one entity produce at most one send.
struct CoalescingScenario {
    let harness: Harness
    let report: Report
    let smoke: Bool

    func run() async throws {
        let toggles = smoke ? 100 : 10_000
        let folder = harness.folder("coalescing")
        try await harness.createSchema(in: folder)

        var rawElapsed = Duration.zero
        do {
            // Baseline: the same rows, the operation's payload replaced in place.
            let raw = try RawSQLite(path: harness.databasePath(folder), synchronous: "NORMAL")
            try raw.transaction { try RawOutbox.localWrite(raw, entity: "raw-toggle", value: "on", now: 0) }
            rawElapsed = try await measure {
                for i in 0..<toggles {
                    let value = i % 2 == 0 ? "off" : "on"
                    try raw.transaction {
                        try raw.run(
                            "INSERT INTO bench_entities (id, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                            [.text("raw-toggle"), .text(value), .double(Double(i))]
                        )
                        var seq: Int64 = 0
                        try raw.query(
                            "SELECT seq FROM kernel_operations WHERE plugin = 'bench' AND entity = ? ORDER BY seq DESC LIMIT 1",
                            [.text("raw-toggle")]
                        ) {
                            seq = RawSQLite.int($0, 0)
                        }
                        try raw.run(
                            "UPDATE kernel_operations SET payload = ? WHERE seq = ?",
                            [.blob(Data("{\"title\":\"\(value)\"}".utf8)), .int(seq)]
                        )
                    }
                }
            }
            try raw.run("DELETE FROM kernel_operations")
        }

        let runtime = try await harness.runtime(in: folder)
        let elapsed = try await measure {
            for i in 0..<toggles {
                let value = i % 2 == 0 ? "on" : "off"
                try await runtime.commit { db, queue in
                    try BenchPlugin.upsert(id: "toggle", value: value, now: Double(i), in: db)
                    queue.enqueue(BenchPlugin.operation(entity: "toggle", value: value))
                }
            }
        }
        let queued = try await runtime.store.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM kernel_operations") ?? 0
        }
        BenchControl.shared.reset()
        _ = try await SyncEngine(runtime: runtime).runOnce()
        let sends = BenchControl.shared.sends
        let label = "\(toggles.formatted) toggles"
        report.add(
            Figure(
                scenario: "coalescing",
                size: label,
                metric: "sends after the toggles",
                unit: "sends",
                ferry: Double(sends),
                baseline: nil,
                baselineName: nil,
                target: "<= 1",
                met: sends <= 1 && queued <= 1
            )
        )
        report.add(
            Figure(
                scenario: "coalescing",
                size: label,
                metric: "cost per toggle",
                unit: "µs",
                ferry: elapsed.seconds * 1e6 / Double(toggles),
                baseline: rawElapsed.seconds * 1e6 / Double(toggles),
                baselineName: "raw C update in place"
            )
        )
    }
}
