import Foundation
import GRDB
import SyncKernel
import Synchronization

/// The plugin every scenario writes through: entities in `bench_entities`, one `put`
/// operation kind that coalesces by replacing the payload (as a settings toggle would).
///
/// With `network: true` a `put` is `PUT /v1/recipes/{entity}` on FerryServer; otherwise
/// `send` only counts, so the engine's own cost (choose, lease, acknowledge) is measured.
/// With `pull: true` its pull follows FerryServer's recipes feed into `bench_entities`.
struct BenchPlugin: SyncPlugin {
    struct Settings: Codable, Sendable {
        var network: Bool?
        var pull: Bool?
    }

    static let name = "bench"
    static let summary = "Benchmark entities"
    static let operations: [String: OperationPolicy] = [
        "put": OperationPolicy(coalesce: .init(mode: .replace))
    ]
    static let migrations = [
        StoreMigration("bench.v1.entities") { db in
            try db.execute(
                sql: "CREATE TABLE bench_entities (id TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at REAL NOT NULL)"
            )
        }
    ]

    let network: Bool
    let pulls: Bool

    init(settings: Settings, context: PluginContext) {
        network = settings.network ?? false
        pulls = settings.pull ?? false
    }

    struct Body: Codable { var title: String }

    func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        defer { BenchControl.shared.sent() }
        guard network else { return .delivered }
        _ = try await context.transport.send(
            HTTPRequest(
                "PUT",
                "/v1/recipes/\(operation.entity)",
                headers: [("Content-Type", "application/json")],
                body: operation.payload
            )
        )
        return .delivered
    }

    /// Each recipe as a plugin would keep it: its title, from the entity the kernel hands over.
    func pull(_ context: PluginContext) async throws -> PullSummary {
        guard pulls else { return PullSummary() }
        return try await context.follow("/v1/recipes/changes", pageSize: 1000) { change, db in
            guard !change.isDeletion else {
                try db.cachedStatement(sql: "DELETE FROM bench_entities WHERE id = ?").execute(arguments: [change.id])
                return .deleted
            }
            let recipe = try change.decode(Body.self)
            try Self.upsert(id: change.id, value: recipe.title, now: 0, in: db)
            return .upserted
        }
    }

    /// The local write a plugin does with its operation: an upsert with a cached statement.
    static func upsert(id: String, value: String, now: Double, in db: Database) throws {
        try db.cachedStatement(
            sql:
                "INSERT INTO bench_entities (id, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at"
        ).execute(arguments: [id, value, now])
    }

    static func operation(entity: String, value: String) -> NewOperation {
        NewOperation(plugin: name, kind: "put", entity: entity, payloadJSON: Data("{\"title\":\"\(value)\"}".utf8))
    }
}

/// Counts sends and stops the engine after a given number, so a drain can be timed on
/// part of a large queue.
final class BenchControl: Sendable {
    static let shared = BenchControl()

    private struct State {
        var sends = 0
        var stopAt: Int?
        var engine: SyncEngine?
    }

    private let state = Mutex(State())

    func reset(stopAt: Int? = nil, engine: SyncEngine? = nil) {
        state.withLock { $0 = State(sends: 0, stopAt: stopAt, engine: engine) }
    }

    var sends: Int { state.withLock { $0.sends } }

    func sent() {
        let engine = state.withLock { state -> SyncEngine? in
            state.sends += 1
            if let stopAt = state.stopAt, state.sends >= stopAt { return state.engine }
            return nil
        }
        engine?.stop()
    }
}
