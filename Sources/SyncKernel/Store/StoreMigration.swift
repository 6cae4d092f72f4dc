import GRDB

/// One schema step, identified by a namespaced id that is never renamed
/// (`kernel.v1.outbox`, `recipes.v1.recipes`).
public struct StoreMigration: Sendable {
    /// The step's id, recorded once the step has run; a step runs once per store.
    public let id: String
    /// The schema change, run in a transaction.
    public let migrate: @Sendable (Database) throws -> Void

    /// Creates a step.
    ///
    /// ```swift
    /// StoreMigration("notes.v1.notes") { db in
    ///     try db.execute(sql: "CREATE TABLE notes_notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)")
    /// }
    /// ```
    public init(_ id: String, migrate: @escaping @Sendable (Database) throws -> Void) {
        self.id = id
        self.migrate = migrate
    }
}
