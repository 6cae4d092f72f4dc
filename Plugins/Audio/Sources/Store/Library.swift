import Foundation
import GRDB
import SyncKernel

/// The library as last pulled: albums with their tracks, and collections with their albums.
enum Library {
    static func store(_ album: AudioAlbum, json: Data, in db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO audio_albums (id, title, artist_name, year, json) VALUES (?, ?, ?, ?, ?)"
        ).execute(arguments: [album.id, album.title, album.artistName, album.year, json])
        try db.cachedStatement(sql: "DELETE FROM audio_album_tracks WHERE album_id = ?").execute(arguments: [album.id])
        for (position, track) in album.tracks.enumerated() {
            try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO audio_tracks (id, title, part_key, url, byte_size, sha256)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [track.id, track.title, track.partKey, track.url, track.byteSize, track.sha256])
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO audio_album_tracks (album_id, track_id, position) VALUES (?, ?, ?)"
            ).execute(arguments: [album.id, track.id, position])
        }
    }

    /// Deletes an album and the tracks no other album lists.
    static func deleteAlbum(_ id: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM audio_albums WHERE id = ?").execute(arguments: [id])
        try db.cachedStatement(sql: "DELETE FROM audio_album_tracks WHERE album_id = ?").execute(arguments: [id])
        try db.cachedStatement(
            sql: "DELETE FROM audio_tracks WHERE id NOT IN (SELECT track_id FROM audio_album_tracks)"
        ).execute()
    }

    static func store(_ collection: AudioCollection, json: Data, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO audio_collections (id, name, json) VALUES (?, ?, ?)")
            .execute(arguments: [collection.id, collection.name, json])
        try db.cachedStatement(sql: "DELETE FROM audio_collection_albums WHERE collection_id = ?")
            .execute(arguments: [collection.id])
        for (position, album) in collection.albumIds.enumerated() {
            try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO audio_collection_albums (collection_id, album_id, position) VALUES (?, ?, ?)"
            ).execute(arguments: [collection.id, album, position])
        }
    }

    static func deleteCollection(_ id: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM audio_collections WHERE id = ?").execute(arguments: [id])
        try db.cachedStatement(sql: "DELETE FROM audio_collection_albums WHERE collection_id = ?")
            .execute(arguments: [id])
    }

    static func albums(in db: Database) throws -> [AudioAlbum] {
        try Data.fetchAll(db.cachedStatement(sql: "SELECT json FROM audio_albums ORDER BY title, id")).map(decode)
    }

    static func album(_ id: String, in db: Database) throws -> AudioAlbum? {
        try Data.fetchOne(
            db.cachedStatement(sql: "SELECT json FROM audio_albums WHERE id = ?"),
            arguments: [id]
        ).map(decode)
    }

    static func collections(in db: Database) throws -> [AudioCollection] {
        try Data.fetchAll(db.cachedStatement(sql: "SELECT json FROM audio_collections ORDER BY name, id")).map(decode)
    }

    static func collection(_ id: String, in db: Database) throws -> AudioCollection? {
        try Data.fetchOne(
            db.cachedStatement(sql: "SELECT json FROM audio_collections WHERE id = ?"),
            arguments: [id]
        ).map(decode)
    }

    /// The track `id`, or the first track whose file is `id` (a part key).
    static func track(_ id: String, in db: Database) throws -> AudioTrack? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT * FROM audio_tracks WHERE id = ? OR part_key = ? ORDER BY id = ? DESC LIMIT 1"
            ),
            arguments: [id, id, id]
        ).map(track(from:))
    }

    /// The track that carries file `partKey` (any of them: they share the file).
    static func file(_ partKey: String, in db: Database) throws -> AudioTrack? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT * FROM audio_tracks WHERE part_key = ? LIMIT 1"),
            arguments: [partKey]
        )
            .map(track(from:))
    }

    static func decode<T: Decodable>(_ data: Data) throws -> T {
        try JSONDecoder.ferry.decode(T.self, from: data)
    }

    private static func track(from row: Row) -> AudioTrack {
        AudioTrack(
            id: row["id"],
            title: row["title"],
            trackNumber: nil,
            durationMs: nil,
            partKey: row["part_key"],
            byteSize: row["byte_size"],
            sha256: row["sha256"],
            url: row["url"]
        )
    }
}

extension Library {
    /// The bytes of `files` (part keys), each counted once.
    static func bytes(of files: Set<String>, in db: Database) throws -> Int64 {
        var total: Int64 = 0
        for file in files {
            total += try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT byte_size FROM audio_tracks WHERE part_key = ? LIMIT 1"),
                arguments: [file]
            ) ?? 0
        }
        return total
    }

    /// Forgets every album, track and collection (another account signed in).
    static func forgetAll(in db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM audio_collection_albums;
                DELETE FROM audio_collections;
                DELETE FROM audio_album_tracks;
                DELETE FROM audio_tracks;
                DELETE FROM audio_albums;
                """
        )
    }
}
