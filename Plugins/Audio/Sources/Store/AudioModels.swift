import Foundation

/// An album as the remote lists it (docs/protocol.md §13).
public struct AudioAlbum: Codable, Sendable, Equatable {
    /// The album's id.
    public var id: String
    /// Its title.
    public var title: String
    /// Its artist, when the remote names one.
    public var artistName: String?
    /// Its year, when known.
    public var year: Int?
    /// Its tracks, in order; album entries may share files (`part_key`).
    public var tracks: [AudioTrack]

    /// The album's tracks once each (entries that share a file count it once), in order.
    public var trackGroup: [AudioTrack] {
        var seen: Set<String> = []
        return tracks.filter { seen.insert($0.partKey).inserted }
    }

    /// The bytes of its track group.
    public var bytes: Int64 { trackGroup.reduce(0) { $0 + $1.byteSize } }
}

/// A track of an album: its file is `part_key`, which albums may share.
public struct AudioTrack: Codable, Sendable, Equatable {
    /// The track's id (one per album entry).
    public var id: String
    /// Its title.
    public var title: String
    /// Its number on the album, when known.
    public var trackNumber: Int?
    /// Its length in milliseconds, when known.
    public var durationMs: Int?
    /// The file's key: the name it is downloaded under, and what deduplicates shared tracks.
    public var partKey: String
    /// The file's size, which a download must match.
    public var byteSize: Int64
    /// The file's SHA-256 (hex), which a download must match.
    public var sha256: String
    /// The file's path below the remote (`/v1/audio/files/<part_key>`).
    public var url: String
}

/// A collection of albums, whose membership changes on the remote.
public struct AudioCollection: Codable, Sendable, Equatable {
    /// The collection's id.
    public var id: String
    /// Its name.
    public var name: String
    /// Its albums, in order, as the remote has them now.
    public var albumIds: [String]
}

extension AudioAlbum {
    /// Why the album cannot be taken as the remote sent it (a size that is no file size, a
    /// checksum that is no SHA-256, a file name that is no plain name, a URL that is not
    /// below the remote); nil when it can.
    var problem: String? {
        for track in tracks {
            guard (0...(1 << 44)).contains(track.byteSize) else { return "track \(track.id) has the size \(track.byteSize)" }
            guard track.sha256.count == 64, track.sha256.allSatisfy(\.isHexDigit) else {
                return "track \(track.id) has no SHA-256"
            }
            guard AudioTrack.isPlainName(track.partKey) else { return "track \(track.id) has the file name '\(track.partKey.prefix(80))'" }
            guard track.url.hasPrefix("/"), !track.url.hasPrefix("//") else {
                return "track \(track.id) is not served by the remote itself ('\(track.url.prefix(80))')"
            }
        }
        return nil
    }
}

extension AudioTrack {
    /// Letters, digits, `.`, `_` and `-`, at most 200 of them, not starting with a dot.
    static func isPlainName(_ name: String) -> Bool {
        (1...200).contains(name.utf8.count) && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }
}
