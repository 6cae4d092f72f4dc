import Foundation
import GRDB
import GRDBSQLite
import SyncKernel

/// Scenario 4: a point read by id and a list of 10k cached rows under `cache_first`, from
/// SQLite (the reads have no key, so the memory tier is not asked; see scenario 4b).
struct ReadsScenario {
    let harness: Harness
    let report: Report
    let smoke: Bool

    typealias Entity = PointRead.Entity

    func run() async throws {
        let rows = smoke ? 500 : 10_000
        let reads = smoke ? 100 : 5000
        let lists = smoke ? 3 : 50
        let folder = harness.folder("reads")
        try await harness.createSchema(in: folder)
        try Prefill.entities(rows, path: harness.databasePath(folder))
        let ids = (0..<reads).map { _ in "seed-\(Int.random(in: 0..<rows))" }

        var rawPoint = Samples()
        var rawList = Samples()
        do {
            let raw = try RawSQLite(path: harness.databasePath(folder), synchronous: "NORMAL")
            let clock = ContinuousClock()
            for id in ids {
                let start = clock.now
                let found = try PointRead.raw(id, raw)
                rawPoint.add(clock.now - start)
                precondition(found)
            }
            for _ in 0..<lists {
                let start = clock.now
                var all: [(String, String, Double)] = []
                all.reserveCapacity(rows)
                try raw.query("SELECT id, value, updated_at FROM bench_entities ORDER BY id") { s in
                    all.append((RawSQLite.text(s, 0), RawSQLite.text(s, 1), sqlite3_column_double(s, 2)))
                }
                var pending = false
                try raw.query("SELECT EXISTS (SELECT 1 FROM kernel_operations WHERE plugin = 'bench')", []) { s in
                    pending = RawSQLite.int(s, 0) != 0
                }
                rawList.add(clock.now - start)
                precondition(!pending)
                precondition(all.count == rows)
            }
        }

        let runtime = try await harness.runtime(in: folder)
        let reader = CachedReader(connectivity: runtime.connectivity)
        let store = runtime.store
        var point = Samples()
        var list = Samples()
        let clock = ContinuousClock()
        for id in ids {
            let start = clock.now
            let answer = try await reader.read(.cacheFirst, cache: { try await PointRead.ferry(id, store) }, refresh: {})
            point.add(clock.now - start)
            precondition(answer != nil)
        }
        for _ in 0..<lists {
            let start = clock.now
            let answer = try await reader.read(
                .cacheFirst,
                cache: {
                    try await store.read { db in
                        let entities = try Entity.fetchAll(
                            db.cachedStatement(sql: "SELECT id, value, updated_at FROM bench_entities ORDER BY id")
                        )
                        let pending = try Bool.fetchOne(
                            db.cachedStatement(
                                sql: "SELECT EXISTS (SELECT 1 FROM kernel_operations WHERE plugin = 'bench')"
                            )
                        )
                        return CacheSnapshot(value: entities, hasPendingWrites: pending ?? false)
                    }
                },
                refresh: {}
            )
            list.add(clock.now - start)
            precondition(answer?.value.count == rows)
        }
        let label = "\(rows.formatted) rows"
        report.add(
            Figure(
                scenario: "read cache_first, SQLite tier",
                size: label,
                metric: "point read p50",
                unit: "µs",
                ferry: point.p50,
                baseline: rawPoint.p50,
                baselineName: "raw C"
            )
        )
        report.add(
            Figure(
                scenario: "read cache_first, SQLite tier",
                size: label,
                metric: "point read p99",
                unit: "µs",
                ferry: point.p99,
                baseline: rawPoint.p99,
                baselineName: "raw C"
            )
        )
        report.add(
            Figure(
                scenario: "read cache_first, SQLite tier",
                size: label,
                metric: "list all p50",
                unit: "µs",
                ferry: list.p50,
                baseline: rawList.p50,
                baselineName: "raw C"
            )
        )
        report.add(
            Figure(
                scenario: "read cache_first, SQLite tier",
                size: label,
                metric: "list all p99",
                unit: "µs",
                ferry: list.p99,
                baseline: rawList.p99,
                baselineName: "raw C"
            )
        )
    }
}
