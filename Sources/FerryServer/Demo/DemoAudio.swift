import FerryHashing
import Foundation
import Synchronization

/// The demo music library: two artists, three albums of three WAV tone tracks, a deluxe
/// edition of the first that shares its three files and adds a fourth, an album whose one
/// track is served with bytes that do not match its `sha256` (so that a client's
/// verification is seen failing), and two collections that share an album.
///
/// Part keys look like `demo-a1-t1.wav`; every other track's `byte_size` and `sha256` match
/// its bytes.
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

    /// The demo tracks of `seconds` each, generated once per process (a few MB of tones
    /// and their checksums are worth not recomputing for every server a process starts).
    ///
    /// They are generated on a thread of their own, and servers starting meanwhile wait for
    /// that one generation without holding a thread: generated on Swift's cooperative
    /// threads, behind a lock, three servers starting at once in a debug build held both
    /// threads of a two-core machine for seconds, and everything else in the process
    /// waited.
    static func files(seconds: Double) async -> [File] {
        let generation = generations.withLock { generations in
            if let running = generations[seconds] { return running }
            let running = Task<[File], Never> {
                await withCheckedContinuation { continuation in
                    Thread.detachNewThread { continuation.resume(returning: generate(seconds: seconds)) }
                }
            }
            generations[seconds] = running
            return running
        }
        return await generation.value
    }

    private static let generations = Mutex<[Double: Task<[File], Never>]>([:])

    /// The deluxe edition of album 1: its three files under other track ids, and a bonus.
    static let deluxe = (id: "alb_demo_1_deluxe", title: "Sine Waves (Deluxe)", year: 2024, bonus: "demo-a1d-t4.wav")
    /// The album whose track's bytes do not match the checksum it is listed with.
    static let broken = (id: "alb_demo_broken", title: "Broken Record", file: "demo-broken-t1.wav")

    private static func generate(seconds: Double) -> [File] {
        regular(seconds: seconds) + [
            tone(deluxe.id, 4, "\(deluxe.title) 4", deluxe.bonus, frequency: 440, seconds: seconds),
            tone(broken.id, 1, "\(broken.title) 1", broken.file, frequency: 180, seconds: seconds),
        ]
    }

    private static func tone(
        _ album: String,
        _ number: Int,
        _ title: String,
        _ partKey: String,
        frequency: Double,
        seconds: Double
    ) -> File {
        let data = WAVTone.make(frequency: frequency, seconds: seconds)
        return File(
            albumID: album,
            number: number,
            title: title,
            partKey: partKey,
            data: data,
            sha256: SHA256Hasher.hex(data),
            durationMilliseconds: Int(seconds * 1000)
        )
    }

    private static func regular(seconds: Double) -> [File] {
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

    static func seed(_ db: any SQLSession, files: [File], now: Date) throws {
        let scope = AudioRoutes.scope
        for (id, name) in [("art_demo_1", "The Oscillators"), ("art_demo_2", "Low Pass")] {
            try Entities.put(db, "audio_artists", scope: scope, id: id, data: ["name": .string(name)], now: now)
        }
        for file in files {
            try Blobs.put(
                db,
                key: AudioFiles.blobKey(file.partKey),
                contentType: "audio/wav",
                data: file.data,
                sha256: file.sha256,
                now: now
            )
        }
        func put(_ id: String, _ title: String, artist: (id: String, name: String), year: Int, _ tracks: [JSON]) throws
        {
            let bytes = tracks.reduce(0) { total, track in
                if case .object(let fields) = track, case .int(let size) = fields["byte_size"] { return total + size }
                return total
            }
            try Entities.put(
                db,
                "audio_albums",
                scope: scope,
                id: id,
                data: [
                    "title": .string(title), "artist_id": .string(artist.id), "artist_name": .string(artist.name),
                    "year": .int(year), "total_bytes": .int(bytes), "tracks": .array(tracks),
                ],
                now: now
            )
        }
        for album in albums {
            let tracks = files.filter { $0.albumID == album.id }
            try put(
                album.id,
                album.title,
                artist: (album.artistID, album.artist),
                year: album.year,
                tracks.map { track($0) }
            )
        }
        let first = files.filter { $0.albumID == albums[0].id }
        let bonus = files.filter { $0.albumID == deluxe.id }
        try put(
            deluxe.id,
            deluxe.title,
            artist: (albums[0].artistID, albums[0].artist),
            year: deluxe.year,
            first.map { track($0, id: "trk_demo-a1d-t\($0.number)") } + bonus.map { track($0) }
        )
        let damaged = files.filter { $0.albumID == broken.id }
        try put(
            broken.id,
            broken.title,
            artist: ("art_demo_2", "Low Pass"),
            year: 2020,
            damaged.map { track($0, sha256: String(repeating: "0", count: 64)) }
        )
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
                "name": "New releases", "album_ids": ["alb_demo_2", "alb_demo_3"],
            ],
            now: now
        )
    }

    /// A track's entity; `id` and `sha256` default to the file's own.
    private static func track(_ file: File, id: String? = nil, sha256: String? = nil) -> JSON {
        [
            "id": .string(id ?? "trk_\(file.partKey.dropLast(4))"), "title": .string(file.title),
            "track_number": .int(file.number), "duration_ms": .int(file.durationMilliseconds),
            "part_key": .string(file.partKey), "byte_size": .int(file.data.count),
            "sha256": .string(sha256 ?? file.sha256), "content_type": "audio/wav",
            "url": .string("/v1/audio/files/\(file.partKey)"),
        ]
    }
}
