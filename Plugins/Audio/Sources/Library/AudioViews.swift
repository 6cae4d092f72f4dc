import Foundation

/// An album of the library, with what this device holds of it.
public struct AlbumView: Sendable, Encodable, Equatable {
    /// The album's id.
    public var id: String
    /// Its title.
    public var title: String
    /// Its artist, when the remote names one.
    public var artist: String?
    /// Its year, when known.
    public var year: Int?
    /// The tracks of its group (each file once).
    public var tracks: Int
    /// The bytes of those tracks.
    public var bytes: Int64
    /// How many of them are on this device, verified.
    public var downloaded: Int
    /// Kept because it was downloaded explicitly.
    public var explicit: Bool
    /// The downloaded collections that keep it.
    public var collections: [String]
}

/// A collection of the library, with whether it is downloaded.
public struct CollectionView: Sendable, Encodable, Equatable {
    /// The collection's id.
    public var id: String
    /// Its name.
    public var name: String
    /// The ids of its albums, as last pulled.
    public var albums: [String]
    /// Whether this device keeps it (and reconciles its albums on every refresh).
    public var downloaded: Bool
}

/// What a download request queued.
public struct DownloadPlan: Sendable, Encodable, Equatable {
    /// The album or collection, by name.
    public var title: String
    /// The tracks it covers (each file once).
    public var tracks: Int
    /// Those already on this device.
    public var alreadyDownloaded: Int
    /// The files queued for download now.
    public var queued: Int
    /// The bytes still to download.
    public var bytes: Int64
    /// Why the downloads cannot run now (a metered or no connection); nil when they can.
    public var held: String?
}

/// Where a track plays from.
public enum PlaybackSource: Sendable, Equatable {
    /// The downloaded, verified file.
    case local(URL)
    /// The remote's file (online only).
    case remote(String)
    /// Neither: offline and not downloaded.
    case unavailable(String)
}

/// One track of a download under way or waiting.
public struct TrackProgress: Sendable, Encodable, Equatable {
    /// The track's file (part key).
    public var file: String
    /// Its title.
    public var title: String
    /// Bytes on disk so far.
    public var received: Int64
    /// Its size.
    public var total: Int64
    /// What it waits for, or why it failed.
    public var state: String
}

/// A track cached ahead of play (not kept: evicted first when room is needed).
public struct CachedTrack: Sendable, Encodable, Equatable {
    /// The track's file (part key).
    public var file: String
    /// Its title.
    public var title: String
    /// Its size.
    public var bytes: Int64
    /// When it was last played; nil when never.
    public var lastPlayed: Date?
}

/// The downloads screen: in progress, downloaded albums, downloaded collections, and
/// tracks cached ahead of play.
public struct DownloadsView: Sendable, Encodable, Equatable {
    /// Downloads under way, waiting or failed, per track.
    public var inProgress: [TrackProgress]
    /// Bytes received and total of everything in progress.
    public var received: Int64
    /// The total of everything in progress.
    public var total: Int64
    /// Kept albums.
    public var albums: [AlbumView]
    /// Downloaded collections.
    public var collections: [CollectionView]
    /// Tracks cached ahead of play.
    public var cached: [CachedTrack]
    /// Bytes of files on this device, and the limit.
    public var usedBytes: Int64
    /// `plugins.audio.max_size`.
    public var maxBytes: Int64
}
