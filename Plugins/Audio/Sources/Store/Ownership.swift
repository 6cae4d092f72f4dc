import Foundation
import GRDB

/// What this device keeps, and why.
///
/// An album is kept when it was downloaded explicitly, or when a downloaded collection
/// held it (the membership recorded at download or at the last reconciliation). Its
/// track group is kept: pinned in the file cache, never evicted. Tracks cached ahead of
/// play are not kept: they are evicted least recently played first when room is needed.
enum Ownership {
    /// Files (part keys) of kept albums.
    static func keptFiles(in db: Database) throws -> Set<String> {
        Set(
            try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT DISTINCT t.part_key FROM audio_tracks t
                        JOIN audio_album_tracks a ON a.track_id = t.id
                        WHERE a.album_id IN (
                            SELECT album_id FROM audio_explicit_albums
                            UNION SELECT album_id FROM audio_collection_downloads
                        )
                        """
                )
            )
        )
    }

    /// Files cached ahead of play.
    static func aheadFiles(in db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db.cachedStatement(sql: "SELECT part_key FROM audio_cached_ahead")))
    }

    /// Files cached ahead of play whose download has not been delivered yet.
    static func aheadToFetch(in db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db.cachedStatement(sql: "SELECT part_key FROM audio_cached_ahead WHERE fetched = 0")))
    }

    /// Records that the file cached ahead arrived.
    static func fetched(_ partKey: String, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE audio_cached_ahead SET fetched = 1 WHERE part_key = ?")
            .execute(arguments: [partKey])
    }

    /// Forgets files cached ahead that arrived and are gone since (evicted to make room).
    static func forgetEvicted(keeping complete: Set<String>, in db: Database) throws {
        let evicted = try String.fetchAll(
            db.cachedStatement(sql: "SELECT part_key FROM audio_cached_ahead WHERE fetched = 1")
        )
            .filter { !complete.contains($0) }
        for file in evicted {
            try db.cachedStatement(sql: "DELETE FROM audio_cached_ahead WHERE part_key = ?").execute(arguments: [file])
        }
    }

    /// When a track of file `partKey` was last played, if ever.
    static func lastPlayed(_ partKey: String, in db: Database) throws -> Date? {
        try Double.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT MAX(p.played_at) FROM audio_plays p JOIN audio_tracks t ON t.id = p.track_id
                    WHERE t.part_key = ?
                    """
            ),
            arguments: [partKey]
        ).map(Date.init(timeIntervalSince1970:))
    }

    /// Kept albums, with whether each is explicit and the downloaded collections that hold it.
    static func keptAlbums(in db: Database) throws -> [(album: String, explicit: Bool, collections: [String])] {
        let explicit = Set(try String.fetchAll(db.cachedStatement(sql: "SELECT album_id FROM audio_explicit_albums")))
        var collections: [String: [String]] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT collection_id, album_id FROM audio_collection_downloads ORDER BY collection_id"
            )
        ) {
            collections[row["album_id"], default: []].append(row["collection_id"])
        }
        return explicit.union(collections.keys).sorted().map { ($0, explicit.contains($0), collections[$0] ?? []) }
    }

    static func downloadedCollections(in db: Database) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT collection_id FROM audio_downloaded_collections ORDER BY collection_id")
        )
    }

    static func keepExplicitly(_ album: String, now: Date, in db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO audio_explicit_albums (album_id, requested_at) VALUES (?, ?)"
        ).execute(arguments: [album, now.timeIntervalSince1970])
    }

    /// Drops the explicit download of `album`; returns whether there was one.
    static func dropExplicit(_ album: String, in db: Database) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM audio_explicit_albums WHERE album_id = ?").execute(arguments: [album])
        return db.changesCount > 0
    }

    static func keepCollection(_ collection: String, now: Date, in db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO audio_downloaded_collections (collection_id, requested_at) VALUES (?, ?)"
        ).execute(arguments: [collection, now.timeIntervalSince1970])
    }

    /// Drops a downloaded collection and its membership; returns whether there was one.
    static func dropCollection(_ collection: String, in db: Database) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM audio_downloaded_collections WHERE collection_id = ?")
            .execute(arguments: [collection])
        let dropped = db.changesCount > 0
        try db.cachedStatement(sql: "DELETE FROM audio_collection_downloads WHERE collection_id = ?")
            .execute(arguments: [collection])
        return dropped
    }

    /// The albums recorded for a downloaded collection.
    static func members(of collection: String, in db: Database) throws -> Set<String> {
        Set(
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT album_id FROM audio_collection_downloads WHERE collection_id = ?"),
                arguments: [collection]
            )
        )
    }

    static func record(_ album: String, in collection: String, in db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO audio_collection_downloads (collection_id, album_id) VALUES (?, ?)"
        ).execute(arguments: [collection, album])
    }

    static func forget(_ album: String, in collection: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM audio_collection_downloads WHERE collection_id = ? AND album_id = ?")
            .execute(arguments: [collection, album])
    }

    /// Asks for `partKey` ahead of play; `present` when its file is here already (it is
    /// then kept as cached, and not fetched again once evicted).
    static func cacheAhead(_ partKey: String, present: Bool, now: Date, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO audio_cached_ahead (part_key, requested_at, fetched) VALUES (?, ?, ?)
                ON CONFLICT (part_key) DO UPDATE SET requested_at = excluded.requested_at, fetched = excluded.fetched
                """
        ).execute(arguments: [partKey, now.timeIntervalSince1970, present])
    }

    /// Stops caching `partKey` ahead of play; returns whether it was.
    static func dropAhead(_ partKey: String, in db: Database) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM audio_cached_ahead WHERE part_key = ?").execute(arguments: [partKey])
        return db.changesCount > 0
    }

    static func played(_ track: String, at date: Date, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO audio_plays (track_id, played_at) VALUES (?, ?)")
            .execute(arguments: [track, date.timeIntervalSince1970])
    }

    /// Forgets everything this device keeps (at sign-out).
    static func forgetAll(in db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM audio_explicit_albums;
                DELETE FROM audio_downloaded_collections;
                DELETE FROM audio_collection_downloads;
                DELETE FROM audio_cached_ahead;
                DELETE FROM audio_plays;
                """
        )
    }
}

extension Ownership {
    /// Whether file `partKey` belongs to a kept album.
    static func isKept(_ partKey: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (
                        SELECT 1 FROM audio_tracks t JOIN audio_album_tracks a ON a.track_id = t.id
                        WHERE t.part_key = ? AND a.album_id IN (
                            SELECT album_id FROM audio_explicit_albums
                            UNION SELECT album_id FROM audio_collection_downloads
                        )
                    )
                    """
            ),
            arguments: [partKey]
        ) ?? false
    }

    /// Whether this device keeps `album` (explicitly, or for a downloaded collection).
    static func keepsAlbum(_ album: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM audio_explicit_albums WHERE album_id = ?1)
                        OR EXISTS (SELECT 1 FROM audio_collection_downloads WHERE album_id = ?1)
                    """
            ),
            arguments: [album]
        ) ?? false
    }

    /// Whether file `partKey` is cached ahead of play.
    static func isAhead(_ partKey: String, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM audio_cached_ahead WHERE part_key = ?)"),
            arguments: [partKey]
        ) ?? false
    }
}

extension Ownership {
    /// When each file (part key) was last played, through any of its tracks.
    static func lastPlayed(in db: Database) throws -> [String: Date] {
        var result: [String: Date] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT t.part_key, MAX(p.played_at) AS played_at FROM audio_plays p
                    JOIN audio_tracks t ON t.id = p.track_id GROUP BY t.part_key
                    """
            )
        ) {
            result[row["part_key"]] = Date(timeIntervalSince1970: row["played_at"])
        }
        return result
    }
}
