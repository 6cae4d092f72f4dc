import GRDB
import SyncKernel

/// Which layout of the cache the stored rows were built with, kept in the kernel's
/// settings table. When it differs from `current`, the next pull rebuilds the cache
/// from the server (once: the new version is stored in the same transaction).
enum MovieCacheVersion {
    /// The layout this build writes. Bump it together with a migration that changes the cache.
    static let current = "2"
    /// The settings key.
    static let key = "movies.cache_schema"

    /// The layout the rows were built with, nil before the first full pull.
    static func stored(in db: Database) throws -> String? {
        try SettingsStore.text(for: key, in: db)
    }

    /// Whether the next pull must rebuild the cache.
    static func needsRebuild(in db: Database) throws -> Bool {
        try stored(in: db) != current
    }

    /// Records that the cache now has the current layout.
    static func markRebuilt(in db: Database) throws {
        try SettingsStore.set(current, for: key, in: db)
    }

    /// Forgets the layout, so that the next pull rebuilds the cache; for migrations.
    static func invalidate(in db: Database) throws {
        try SettingsStore.set(nil, for: key, in: db)
    }
}
