import Foundation

/// An album as the remote lists it (docs/protocol.md §13).
public struct AudioAlbum: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var artistName: String?
    public var year: Int?
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
    public var id: String
    public var title: String
    public var trackNumber: Int?
    public var durationMs: Int?
    public var partKey: String
    public var byteSize: Int64
    public var sha256: String
    /// The file's path below the remote (`/v1/audio/files/<part_key>`).
    public var url: String
}

/// A collection of albums, whose membership changes on the remote.
public struct AudioCollection: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var albumIds: [String]
}
