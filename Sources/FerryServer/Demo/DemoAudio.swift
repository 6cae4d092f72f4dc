import FerryHashing
import Foundation
import GRDB
import Synchronization

/// The demo music library: two artists, three albums of three WAV tone tracks, two collections.
///
/// Part keys look like `demo-a1-t1.wav`; every track's `byte_size` and `sha256` match its bytes.
enum DemoAudio {
    /// One generated track file.
    struct File: Sendable {
        var albumID: String
        var number: Int
        var title: String
        var partKey: String
        var data: Data
        var sha256: String
        var durationMilliseconds: Int
    }

    static let albums: [(id: String, title: String, artistID: String, artist: String, year: Int, base: Double)] = [
        ("alb_demo_1", "Sine Waves", "art_demo_1", "The Oscillators", 2021, 220),
        ("alb_demo_2", "Harmonics", "art_demo_1", "The Oscillators", 2023, 330),
        ("alb_demo_3", "Quiet Tones", "art_demo_2", "Low Pass", 2022, 262),
    ]

    /// Generates the track files (a few MB at the default 6 s per track).
    /// The demo tracks of `seconds` each, generated once per process (a few MB of tones
    /// and their checksums are worth not recomputing for every server a process starts).
    static func files(seconds: Double) -> [File] {
        generated.withLock { cache in
            if let files = cache[seconds] { return files }
            let files = generate(seconds: seconds)
            cache[seconds] = files
            return files
        }
    }

    private static let generated = Mutex<[Double: [File]]>([:])

    private static func generate(seconds: Double) -> [File] {
        albums.enumerated().flatMap { albumIndex, album in
            (1...3).map { number in
                let data = WAVTone.make(frequency: album.base * (1 + Double(number - 1) * 0.25), seconds: seconds)
                return File(
                    albumID: album.id,
                    number: number,
                    title: "\(album.title) \(number)",
                    partKey: "demo-a\(albumIndex + 1)-t\(number).wav",
                    data: data,
                    sha256: SHA256Hasher.hex(data),
                    durationMilliseconds: Int(seconds * 1000)
                )
            }
        }
    }

    static func seed(_ db: Database, files: [File], now: Date) throws {
        let scope = AudioRoutes.scope
        for (id, name) in [("art_demo_1", "The Oscillators"), ("art_demo_2", "Low Pass")] {
            try Entities.put(db, "audio_artists", scope: scope, id: id, data: ["name": .string(name)], now: now)
        }
        for album in albums {
            let tracks = files.filter { $0.albumID == album.id }
            for track in tracks {
                try Blobs.put(
                    db,
                    key: AudioFiles.blobKey(track.partKey),
                    contentType: "audio/wav",
                    data: track.data,
                    sha256: track.sha256,
                    now: now
                )
            }
            try Entities.put(
                db,
                "audio_albums",
                scope: scope,
                id: album.id,
                data: [
                    "title": .string(album.title), "artist_id": .string(album.artistID),
                    "artist_name": .string(album.artist),
                    "year": .int(album.year), "total_bytes": .int(tracks.reduce(0) { $0 + $1.data.count }),
                    "tracks": .array(
                        tracks.map { track in
                            [
                                "id": .string("trk_\(track.partKey.dropLast(4))"), "title": .string(track.title),
                                "track_number": .int(track.number), "duration_ms": .int(track.durationMilliseconds),
                                "part_key": .string(track.partKey), "byte_size": .int(track.data.count),
                                "sha256": .string(track.sha256), "content_type": "audio/wav",
                                "url": .string("/v1/audio/files/\(track.partKey)"),
                            ]
                        }
                    ),
                ],
                now: now
            )
        }
        try Entities.put(
            db,
            "audio_collections",
            scope: scope,
            id: "col_demo_favourites",
            data: [
                "name": "Favourites", "album_ids": ["alb_demo_1", "alb_demo_3"],
            ],
            now: now
        )
        try Entities.put(
            db,
            "audio_collections",
            scope: scope,
            id: "col_demo_new",
            data: [
                "name": "New releases", "album_ids": ["alb_demo_2"],
            ],
            now: now
        )
    }
}
