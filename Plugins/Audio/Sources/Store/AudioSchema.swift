import GRDB
import SyncKernel

/// The audio plugin's tables: the library as the remote lists it (albums, their tracks,
/// collections and their albums), and what this device keeps of it (explicit albums,
/// downloaded collections with the membership they were downloaded with, tracks cached
/// ahead of play, and when each track was last played).
///
/// Files themselves are the kernel's (`FileCache`, owner `audio.tracks`, keyed by part key).
enum AudioSchema {
    static let migrations = [
        StoreMigration("audio.v1.library") { db in
            try db.execute(
                sql: """
                    CREATE TABLE audio_albums (
                        id TEXT PRIMARY KEY,
                        title TEXT NOT NULL,
                        artist_name TEXT,
                        year INTEGER,
                        json BLOB NOT NULL
                    );
                    CREATE TABLE audio_tracks (
                        id TEXT PRIMARY KEY,
                        title TEXT NOT NULL,
                        part_key TEXT NOT NULL,
                        url TEXT NOT NULL,
                        byte_size INTEGER NOT NULL,
                        sha256 TEXT NOT NULL
                    );
                    CREATE INDEX audio_tracks_part ON audio_tracks (part_key);
                    CREATE TABLE audio_album_tracks (
                        album_id TEXT NOT NULL,
                        track_id TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        PRIMARY KEY (album_id, track_id)
                    );
                    CREATE INDEX audio_album_tracks_track ON audio_album_tracks (track_id);
                    CREATE TABLE audio_collections (
                        id TEXT PRIMARY KEY,
                        name TEXT NOT NULL,
                        json BLOB NOT NULL
                    );
                    CREATE TABLE audio_collection_albums (
                        collection_id TEXT NOT NULL,
                        album_id TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        PRIMARY KEY (collection_id, album_id)
                    );
                    """
            )
        },
        StoreMigration("audio.v1.downloads") { db in
            try db.execute(
                sql: """
                    CREATE TABLE audio_explicit_albums (album_id TEXT PRIMARY KEY, requested_at REAL NOT NULL);
                    CREATE TABLE audio_downloaded_collections (
                        collection_id TEXT PRIMARY KEY,
                        requested_at REAL NOT NULL
                    );
                    CREATE TABLE audio_collection_downloads (
                        collection_id TEXT NOT NULL,
                        album_id TEXT NOT NULL,
                        PRIMARY KEY (collection_id, album_id)
                    );
                    CREATE TABLE audio_cached_ahead (part_key TEXT PRIMARY KEY, requested_at REAL NOT NULL);
                    CREATE TABLE audio_plays (track_id TEXT PRIMARY KEY, played_at REAL NOT NULL);
                    """
            )
        },
        // A file cached ahead is fetched once: once its download was delivered, an eviction
        // does not bring it back (only another play does).
        StoreMigration("audio.v2.fetched") { db in
            try db.execute(sql: "ALTER TABLE audio_cached_ahead ADD COLUMN fetched INTEGER NOT NULL DEFAULT 0")
        },
    ]
}
