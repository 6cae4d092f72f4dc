import GRDB
import SyncKernel

/// Favourite recipes: saved and unsaved at once, synced with `/v1/saved-recipes`.
struct FavouritesPlugin: SyncPlugin {
    static let name = "favourites"
    static let operations: [String: OperationPolicy] = [
        "save": OperationPolicy(coalesce: .init(cancels: ["unsave"])),
        "unsave": OperationPolicy(coalesce: .init(cancels: ["save"])),
    ]
    static let migrations = [
        StoreMigration("favourites.v1.saved") { db in
            try db.execute(sql: "CREATE TABLE favourites_saved (recipe TEXT PRIMARY KEY)")
        }
    ]

    init(settings: EmptySettings, context: PluginContext) {}

    /// The local write: flips the saved state and queues what carries it, in one
    /// transaction. It answers at once, online or not.
    static func toggle(_ recipe: String, in runtime: FerryRuntime) async throws -> Bool {
        try await runtime.commit { db, queue in
            let saved = try isSaved(recipe, in: db)
            try set(recipe, saved: !saved, in: db)
            let kind = saved ? "unsave" : "save"
            queue.enqueue(try NewOperation(plugin: name, kind: kind, entity: recipe, payload: [String: String]()))
            return !saved
        }.value
    }

    static func isSaved(_ recipe: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM favourites_saved WHERE recipe = ?)", arguments: [recipe])
            ?? false
    }

    static func set(_ recipe: String, saved: Bool, in db: Database) throws {
        let sql =
            saved
            ? "INSERT OR IGNORE INTO favourites_saved (recipe) VALUES (?)"
            : "DELETE FROM favourites_saved WHERE recipe = ?"
        try db.execute(sql: sql, arguments: [recipe])
    }

    /// The send: one request. The kernel adds the token and the idempotency key, batches,
    /// retries and classifies every failure.
    func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        let method = operation.kind == "save" ? "PUT" : "DELETE"
        _ = try await context.transport.send(HTTPRequest(method, "/v1/saved-recipes/\(operation.entity)"))
        return .delivered
    }

    /// The pull: the kernel follows the feed and stores each page with its cursor.
    func pull(_ context: PluginContext) async throws -> PullSummary {
        try await context.follow("/v1/saved-recipes/changes") { change, db in
            try Self.set(change.id, saved: !change.isDeletion, in: db)
            return change.isDeletion ? .deleted : .upserted
        }
    }

    /// The rebase: after the remote's state landed, the kernel hands back each unsent
    /// write of the entity so that the row shows it again.
    func reapply(_ operation: QueuedOperation, in db: Database) throws {
        try Self.set(operation.entity, saved: operation.kind == "save", in: db)
    }
}
