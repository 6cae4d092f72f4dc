import GRDB

/// One schema step, identified by a namespaced id that is never renamed
/// (`kernel.v1.outbox`, `recipes.v1.recipes`).
public struct StoreMigration: Sendable {
    public let id: String
    public let migrate: @Sendable (Database) throws -> Void

    public init(_ id: String, migrate: @escaping @Sendable (Database) throws -> Void) {
        self.id = id
        self.migrate = migrate
    }
}
