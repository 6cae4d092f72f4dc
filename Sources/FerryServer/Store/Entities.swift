import Foundation

/// The versioned entity store every domain shares: one row per entity, a version per
/// entity, a global sequence number per change and tombstones for deletions.
///
/// A *collection* is what a changes feed covers (`movies`, `recipes`); a *scope* is whose
/// it is (`user:<id>`, `group:<id>`, `global`).
enum Entities {
    /// The live entity, or nil when absent or deleted.
    static func fetch(_ db: any SQLSession, _ collection: String, scope: String, id: String) throws -> JSON? {
        let row = try db.fetchOne(
            sql: "SELECT data FROM entities WHERE collection = ? AND scope = ? AND id = ? AND deleted = 0",
            arguments: [collection, scope, id]
        )
        return row.flatMap { decode($0["data"]) }
    }

    /// The live entity or a 404 with `code`.
    static func require(
        _ db: any SQLSession,
        _ collection: String,
        scope: String,
        id: String,
        code: String
    ) throws -> JSON {
        guard let entity = try fetch(db, collection, scope: scope, id: id) else {
            throw notFound(collection, id: id, code: code)
        }
        return entity
    }

    /// The 404 with `code` for an entity that is absent or deleted.
    static func notFound(_ collection: String, id: String, code: String) -> APIError {
        APIError.notFound(code, "No \(collection.replacingOccurrences(of: "_", with: " ")) entity with id '\(id)'.")
    }

    /// Live entities of a collection in a scope, oldest first, optionally filtered by an SQL condition on `data`.
    static func list(
        _ db: any SQLSession,
        _ collection: String,
        scope: String,
        filter: String? = nil,
        arguments: SQLArguments = []
    ) throws -> [JSON] {
        var sql = "SELECT data FROM entities WHERE collection = ? AND scope = ? AND deleted = 0"
        if let filter { sql += " AND (\(filter))" }
        sql += " ORDER BY seq"
        var all: SQLArguments = [collection, scope]
        all += arguments
        return try db.fetchAll(
            sql: sql,
            arguments: all
        ).compactMap { decode($0["data"]) }
    }

    /// Live entities of a collection in any scope matching an SQL condition on `data` and `scope`.
    static func listAnyScope(
        _ db: any SQLSession,
        _ collection: String,
        filter: String,
        arguments: SQLArguments
    ) throws -> [JSON] {
        var all: SQLArguments = [collection]
        all += arguments
        return try db.fetchAll(
            sql: "SELECT data FROM entities WHERE collection = ? AND deleted = 0 AND (\(filter)) ORDER BY seq",
            arguments: all
        ).compactMap { decode($0["data"]) }
    }

    /// Creates or replaces an entity: bumps its version, stamps `id`, `version` and `updated_at`,
    /// records a change. Returns the stored entity.
    @discardableResult
    static func put(
        _ db: any SQLSession,
        _ collection: String,
        scope: String,
        id: String,
        data: JSON,
        now: Date
    ) throws -> JSON {
        let (previous, sequence) = try nextChange(db, collection, scope: scope, id: id)
        var entity = data
        let version = (previous ?? 0) + 1
        let updatedAt = Timestamp.string(now)
        entity["id"] = .string(id)
        entity["version"] = .int(version)
        entity["updated_at"] = .string(updatedAt)
        let text = String(decoding: entity.encoded(), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO entities (collection, scope, id, version, seq, deleted, updated_at, data)
                VALUES (?, ?, ?, ?, ?, 0, ?, ?)
                ON CONFLICT (collection, scope, id) DO UPDATE SET
                    version = excluded.version, seq = excluded.seq, deleted = 0,
                    updated_at = excluded.updated_at, data = excluded.data
                """,
            arguments: [collection, scope, id, version, sequence, updatedAt, text]
        )
        db.noteChange(sequence)
        return entity
    }

    /// Deletes an entity, leaving a tombstone for changes feeds. Returns false when it was not live.
    @discardableResult
    static func delete(_ db: any SQLSession, _ collection: String, scope: String, id: String, now: Date) throws -> Bool
    {
        let (previous, sequence) = try nextChange(db, collection, scope: scope, id: id, live: true)
        guard previous != nil else { return false }
        try db.execute(
            sql: """
                UPDATE entities SET deleted = 1, version = version + 1, seq = ?, updated_at = ?
                WHERE collection = ? AND scope = ? AND id = ?
                """,
            arguments: [sequence, Timestamp.string(now), collection, scope, id]
        )
        db.noteChange(sequence)
        return true
    }

    /// The version of the entity (nil when absent, or when `live` and deleted) and the
    /// number its change will have, in one statement. The number is taken in the write's
    /// statements rather than by `RETURNING`, which makes SQLite open, fill and close a
    /// table of its own for every statement that has it.
    private static func nextChange(
        _ db: any SQLSession,
        _ collection: String,
        scope: String,
        id: String,
        live: Bool = false
    ) throws -> (version: Int?, sequence: Int) {
        let row = try db.fetchOne(sql: live ? nextChangeOfLive : nextChangeOfAny, arguments: [collection, scope, id])
        let version: Int? = row?["version"]
        let sequence: Int = row?["next"] ?? 1
        return (version, sequence)
    }

    /// One page of a changes feed after `since`, over one collection or several (then each
    /// change names its `collection`).
    static func changes(
        _ db: any SQLSession,
        _ collections: [String],
        scope: String,
        since: Int,
        limit: Int
    ) throws -> (changes: [JSON], cursor: Int, hasMore: Bool) {
        let placeholders = collections.map { _ in "?" }.joined(separator: ", ")
        var arguments = SQLArguments(collections)
        arguments += [scope, since, limit + 1]
        let rows = try db.fetchAll(
            sql: """
                SELECT collection, id, deleted, data, seq FROM entities
                WHERE collection IN (\(placeholders)) AND scope = ? AND seq > ? ORDER BY seq LIMIT ?
                """,
            arguments: arguments
        )
        let page = rows.prefix(limit)
        let changes: [JSON] = page.map { row in
            let id: String = row["id"]
            let deleted: Bool = row["deleted"]
            var change: JSON =
                deleted
                ? ["type": "delete", "id": .string(id)]
                : ["type": "upsert", "id": .string(id), "entity": decode(row["data"]) ?? .null]
            if collections.count > 1 { change["collection"] = .string(row["collection"]) }
            return change
        }
        let cursor: Int = page.last?["seq"] ?? since
        return (changes, cursor, rows.count > limit)
    }

    /// The header a write's success carries its change number in: the highest its
    /// statements issued, or ``highestSequence(_:)`` for a write that changed no entity.
    static let changeHeader = "Ferry-Change"

    /// The highest change sequence issued so far, 0 before the first change: no feed's
    /// cursor can be beyond it. Rows are never removed and a row's `seq` only grows, so the
    /// maximum is the last one issued.
    static func highestSequence(_ db: any SQLSession) throws -> Int {
        try db.fetchValue(Int.self, sql: "SELECT COALESCE(MAX(seq), 0) FROM entities") ?? 0
    }

    /// Starts this opening's part of the change sequence: its changes are numbered from the
    /// microseconds of `now` since 1970, or from the last number the database holds when
    /// that is higher, leaving a gap where no change ever is.
    ///
    /// A database restored from a backup has forgotten the changes made after the backup,
    /// and numbering on from its last change it would number its next changes as those
    /// were: a client whose cursor came from the forgotten ones would take it for one of
    /// the new ones, and miss changes for good. The opening that made the forgotten changes
    /// numbered them from its own, earlier, time: unless it made more than one change a
    /// microsecond, or the clock went back, their cursors fall in the new gap, and are
    /// `invalid_cursor` (``isIssued(_:_:)``): the client pulls again from the start.
    static func openHistory(_ db: any SQLSession, now: Date) throws {
        let last = try db.fetchValue(Int.self, sql: "SELECT \(lastNumber)") ?? 0
        let clock = Int(max(0, now.timeIntervalSince1970) * 1_000_000)
        guard clock > last else { return }
        try db.execute(sql: "INSERT INTO sequence_gaps (low, high) VALUES (?, ?)", arguments: [last, clock])
    }

    /// Whether `cursor` is a change sequence this server can have issued: within what it
    /// has numbered, and in no gap.
    static func isIssued(_ cursor: Int, _ db: any SQLSession) throws -> Bool {
        try holdsEvery(cursor...cursor, db)
    }

    /// Whether this server's data holds every change number in `changes` it may have
    /// issued: none is beyond what it has numbered, and no opening left a gap among them
    /// (a gap there is where a restored database forgot changes, or a restart between
    /// them: either way the client pulls again).
    static func holdsEvery(_ changes: ClosedRange<Int>, _ db: any SQLSession) throws -> Bool {
        guard changes.upperBound <= (try highestSequence(db)) else { return false }
        let gap = try db.fetchOne(
            sql: "SELECT 1 AS found FROM sequence_gaps WHERE low < ? AND ? <= high",
            arguments: [changes.upperBound, changes.lowerBound]
        )
        return gap == nil
    }

    /// The last number of the change sequence: the last change's, or the top of the last
    /// gap (``openHistory(_:now:)``) when that is higher. (Scalar subqueries, each run
    /// once: as subqueries in `FROM`, both were copied into tables on every write.)
    private static let lastNumber = """
        CASE WHEN \(lastChange) > \(lastGap) THEN \(lastChange) ELSE \(lastGap) END
        """
    private static let lastChange = "(SELECT COALESCE(MAX(seq), 0) FROM entities)"
    private static let lastGap = "(SELECT COALESCE(MAX(high), 0) FROM sequence_gaps)"

    /// The change sequence of the next change: every writer holds the write lock, so it is
    /// the last number plus one.
    private static let nextSequence = "SELECT 1 + \(lastNumber)"

    private static let versionOf = "SELECT version FROM entities WHERE collection = ? AND scope = ? AND id = ?"
    private static let nextChangeOfAny = "SELECT (\(versionOf)) AS version, (\(nextSequence)) AS next"
    private static let nextChangeOfLive = "SELECT (\(versionOf) AND deleted = 0) AS version, (\(nextSequence)) AS next"

    private static func decode(_ text: String?) -> JSON? {
        text.flatMap { JSON.decode(Data($0.utf8)) }
    }
}
