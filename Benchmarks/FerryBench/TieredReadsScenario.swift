import Foundation
import GRDB
import SyncKernel

/// Scenario 4b: point reads through both tiers of the cached reader (memory, then
/// SQLite), on a working set: 5,000 reads of 500 entities drawn at random, as a screen
/// reads the same items again and again. The first read of each entity misses the memory
/// tier (500 of 5,000); raw C steps the same two `SELECT`s for every read of the sequence.
struct TieredReadsScenario {
    let harness: Harness
    let report: Report
    let smoke: Bool

    func run() async throws {
        let rows = smoke ? 500 : 10_000
        let reads = smoke ? 200 : 5000
        let workingSet = smoke ? 50 : 500
        let folder = harness.folder("tiered-reads")
        try await harness.createSchema(in: folder)
        try Prefill.entities(rows, path: harness.databasePath(folder))
        let hot = (0..<workingSet).map { _ in "seed-\(Int.random(in: 0..<rows))" }
        let ids = (0..<reads).map { _ in hot.randomElement()! }

        var raw = Samples()
        do {
            let connection = try RawSQLite(path: harness.databasePath(folder), synchronous: "NORMAL")
            let clock = ContinuousClock()
            for id in ids {
                let start = clock.now
                let found = try PointRead.raw(id, connection)
                raw.add(clock.now - start)
                precondition(found)
            }
        }

        let runtime = try await harness.runtime(in: folder)
        let reader = CachedReader(runtime: runtime)
        let store = runtime.store
        var tiered = Samples()
        let clock = ContinuousClock()
        for id in ids {
            let start = clock.now
            let answer = try await reader.read(
                .cacheFirst,
                key: "bench.\(id)",
                cache: { try await PointRead.ferry(id, store) },
                refresh: {}
            )
            tiered.add(clock.now - start)
            precondition(answer != nil)
        }
        let statistics = runtime.readCache.statistics
        let label = "\(workingSet) of \(rows.formatted) rows"
        let scenario = "read cache_first, two tiers"
        report.add(
            Figure(
                scenario: scenario,
                size: label,
                metric: "point read p50",
                unit: "µs",
                ferry: tiered.p50,
                baseline: raw.p50,
                baselineName: "raw C",
                target: "ratio <= 1.5",
                met: smoke ? nil : tiered.p50 <= raw.p50 * 1.5
            )
        )
        report.add(
            Figure(
                scenario: scenario,
                size: label,
                metric: "point read p99",
                unit: "µs",
                ferry: tiered.p99,
                baseline: raw.p99,
                baselineName: "raw C",
                target: "<= 50 µs",
                met: smoke ? nil : tiered.p99 <= 50
            )
        )
        report.add(
            Figure(
                scenario: scenario,
                size: label,
                metric: "memory tier hit rate",
                unit: "%",
                ferry: statistics.hitRate * 100,
                baseline: nil,
                baselineName: nil
            )
        )
    }
}

/// The point read of scenarios 4 and 4b: the entity and whether it has pending writes.
enum PointRead {
    struct Entity: FetchableRecord, Sendable, Equatable {
        var id: String
        var value: String
        var updatedAt: Double
        init(row: Row) {
            id = row[0]
            value = row[1]
            updatedAt = row[2]
        }
    }

    static let entitySQL = "SELECT id, value, updated_at FROM bench_entities WHERE id = ?"
    static let pendingSQL = "SELECT EXISTS (SELECT 1 FROM kernel_operations WHERE plugin = 'bench' AND entity = ?)"

    /// Through the C API; true when the entity was found (and had nothing pending).
    static func raw(_ id: String, _ connection: RawSQLite) throws -> Bool {
        var found: (String, String, Int64)?
        try connection.query(entitySQL, [.text(id)]) { s in
            found = (RawSQLite.text(s, 0), RawSQLite.text(s, 1), RawSQLite.int(s, 2))
        }
        var pending = false
        try connection.query(pendingSQL, [.text(id)]) { s in pending = RawSQLite.int(s, 0) != 0 }
        return found != nil && !pending
    }

    /// Through the store, in one read transaction.
    static func ferry(_ id: String, _ store: FerryStore) async throws -> CacheSnapshot<Entity>? {
        try await store.read { db in
            let entity = try Entity.fetchOne(db.cachedStatement(sql: entitySQL), arguments: [id])
            let pending = try Bool.fetchOne(db.cachedStatement(sql: pendingSQL), arguments: [id])
            return entity.map { CacheSnapshot(value: $0, hasPendingWrites: pending ?? false) }
        }
    }
}
