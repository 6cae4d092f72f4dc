import Foundation
import GRDB

/// Small named values every process of a runner shares (the kernel's UserDefaults).
public struct SettingsStore: Sendable {
    let store: FerryStore

    /// Reads and writes the settings table of `store`.
    public init(store: FerryStore) {
        self.store = store
    }

    /// The value stored under `key`, decoded from its text form; nil when nothing is stored
    /// or the text is not one of `T`'s values.
    public func value<T: RawRepresentable & Sendable>(_ type: T.Type, for key: String) async throws -> T?
    where T.RawValue == String {
        try await store.read { db in try Self.text(for: key, in: db).flatMap(T.init(rawValue:)) }
    }

    /// The values stored under `keys`, in their order, from one read.
    public func values<T: RawRepresentable & Sendable>(_ type: T.Type, for keys: [String]) async throws -> [T?]
    where T.RawValue == String {
        try await store.read { db in try keys.map { try Self.text(for: $0, in: db).flatMap(T.init(rawValue:)) } }
    }

    /// Stores `value` under `key` in its own transaction; nil removes the key.
    public func set<T: RawRepresentable & Sendable>(_ value: T?, for key: String) async throws
    where T.RawValue == String {
        try await store.write { db in try Self.set(value?.rawValue, for: key, in: db) }
    }

    /// The text stored under `key`, read inside a transaction the caller opened.
    public static func text(for key: String, in db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT value FROM kernel_settings WHERE key = ?"),
            arguments: [key]
        )
    }

    /// Stores `text` under `key` inside a transaction the caller opened; nil removes the key.
    public static func set(_ text: String?, for key: String, in db: Database) throws {
        if let text {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO kernel_settings (key, value) VALUES (?, ?)")
                .execute(arguments: [key, text])
        } else {
            try db.cachedStatement(sql: "DELETE FROM kernel_settings WHERE key = ?").execute(arguments: [key])
        }
    }
}
