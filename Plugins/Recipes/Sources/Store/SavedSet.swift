import Foundation
import GRDB
import SyncKernel

/// The user's saved set as this client knows it (`recipes_saved`).
enum SavedSet {
    /// Whether the set is known: its feed has been pulled. Before, it is only empty, and
    /// the server's may hold anything.
    static func isKnown(in db: Database) throws -> Bool {
        try SyncCursors.hasPulled(plugin: RecipesPlugin.name, name: RecipesPlugin.savedFeed, in: db)
    }

    static func contains(_ id: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM recipes_saved WHERE recipe_id = ?)"),
            arguments: [id]
        ) ?? false
    }

    static func insert(_ id: String, at date: Date, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO recipes_saved (recipe_id, saved_at) VALUES (?, ?)")
            .execute(arguments: [id, date.timeIntervalSince1970])
    }

    static func remove(_ id: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM recipes_saved WHERE recipe_id = ?").execute(arguments: [id])
    }

    /// Saved ids with when they were saved.
    static func all(in db: Database) throws -> [String: Date] {
        var result: [String: Date] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT recipe_id, saved_at FROM recipes_saved")) {
            result[row["recipe_id"]] = Date(timeIntervalSince1970: row["saved_at"])
        }
        return result
    }
}
