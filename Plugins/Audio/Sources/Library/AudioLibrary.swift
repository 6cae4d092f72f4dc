import Foundation
import GRDB
import SyncKernel

/// The audio plugin's library API, used by its commands and by apps: the library as last
/// pulled, downloads of albums and collections, playback resolution, and the downloads
/// screen.
///
/// ```swift
/// let audio = try AudioLibrary(runtime: runtime)
/// let plan = try await audio.download(album: "alb_demo_1")    // queued; `ferry run` fetches it on Wi-Fi
/// let source = try await audio.resolve(track: "trk_demo-a1-t1") // the file, else the remote URL
/// ```
public struct AudioLibrary: Sendable {
    /// The opened runtime the library works on.
    public let runtime: FerryRuntime
    let plugin: AudioPlugin
    let context: PluginContext

    /// A library over an opened runtime with the audio plugin enabled.
    public init(runtime: FerryRuntime) throws {
        self.runtime = runtime
        self.plugin = try runtime.plugin(AudioPlugin.self)
        guard let context = runtime.context(for: AudioPlugin.name) else {
            throw FerryError(.plugin, "the audio plugin has no context")
        }
        self.context = context
    }

    var files: FileCache { plugin.files }

    /// Brings the library up to date from the remote (and reconciles downloaded
    /// collections), through the kernel's cached reader. Returns nil when it did, or why the
    /// library stays as last pulled (offline, or the remote did not answer).
    @discardableResult
    public func refresh() async throws -> String? {
        let (runtime, name) = (self.runtime, AudioPlugin.name)
        let read = try await CachedReader(runtime: runtime).read(
            .cacheThenNetwork,
            cache: { CacheSnapshot(value: true, hasPendingWrites: false) },
            refresh: { _ = try await runtime.pull(name) }
        )
        return read?.offline.map { "\($0): showing the library as last pulled" }
    }

    /// The albums of the library, from the cache (`refresh` first for the remote's).
    public func albums() async throws -> [AlbumView] {
        let complete = try await completeFiles()
        return try await runtime.store.read { db in
            let kept = Dictionary(
                uniqueKeysWithValues: try Ownership.keptAlbums(in: db).map { ($0.album, ($0.explicit, $0.collections)) }
            )
            return try Library.albums(in: db).map { album in
                Self.view(album, complete: complete, kept: kept[album.id])
            }
        }
    }

    /// The collections of the library, from the cache.
    public func collections() async throws -> [CollectionView] {
        try await runtime.store.read { db in
            let downloaded = Set(try Ownership.downloadedCollections(in: db))
            return try Library.collections(in: db).map {
                CollectionView(id: $0.id, name: $0.name, albums: $0.albumIds, downloaded: downloaded.contains($0.id))
            }
        }
    }

    /// The album `id` from the cache, or an error that says how to find one.
    func album(_ id: String) async throws -> AudioAlbum {
        guard let album = try await runtime.store.read({ db in try Library.album(id, in: db) }) else {
            throw FerryError(
                .notFound,
                "no album \(id) in the library on this device; `ferry audio albums --refresh` lists the server's albums"
            )
        }
        return album
    }

    /// The collection `id` from the cache, or an error that says how to find one.
    func collection(_ id: String) async throws -> AudioCollection {
        guard let collection = try await runtime.store.read({ db in try Library.collection(id, in: db) }) else {
            throw FerryError(
                .notFound,
                "no collection \(id) in the library on this device; `ferry audio collections --refresh` lists the server's collections"
            )
        }
        return collection
    }

    /// The files on this device, verified.
    func completeFiles() async throws -> Set<String> {
        Set(try await files.entries().map(\.key))
    }

    static func view(_ album: AudioAlbum, complete: Set<String>, kept: (Bool, [String])?) -> AlbumView {
        let group = album.trackGroup
        return AlbumView(
            id: album.id,
            title: album.title,
            artist: album.artistName,
            year: album.year,
            tracks: group.count,
            bytes: album.bytes,
            downloaded: group.filter { complete.contains($0.partKey) }.count,
            explicit: kept?.0 ?? false,
            collections: kept?.1 ?? []
        )
    }
}
