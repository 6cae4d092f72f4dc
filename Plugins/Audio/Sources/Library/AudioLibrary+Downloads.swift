import Foundation
import GRDB
import SyncKernel

extension AudioLibrary {
    /// Keeps `album` on this device, explicitly: its track group is queued for download
    /// (files already here are not downloaded again) and never evicted.
    ///
    /// - Throws: `not_found` for an album the library does not have, `storage_unavailable`
    ///   when the kept downloads would not fit within `max_size` (naming what could go).
    public func download(album id: String) async throws -> DownloadPlan {
        let album = try await album(id)
        try await checkRoom(adding: album.trackGroup, for: "album \(album.title)")
        let now = runtime.clock.now()
        try await runtime.commit { db, _ in try Ownership.keepExplicitly(album.id, now: now, in: db) }
        return try await plan(album.title, files: album.trackGroup)
    }

    /// Keeps `collection` on this device: each of its albums is recorded as the
    /// collection's (not explicit) and queued; every refresh reconciles them.
    public func download(collection id: String) async throws -> DownloadPlan {
        let collection = try await collection(id)
        let albums = try await runtime.store.read { db in
            try collection.albumIds.compactMap { try Library.album($0, in: db) }
        }
        let files = Self.deduplicated(albums.flatMap(\.trackGroup))
        try await checkRoom(adding: files, for: "collection \(collection.name)")
        let now = runtime.clock.now()
        try await runtime.commit { db, _ in
            try Ownership.keepCollection(collection.id, now: now, in: db)
            for album in collection.albumIds { try Ownership.record(album, in: collection.id, in: db) }
        }
        return try await plan(collection.name, files: files)
    }

    /// Stops keeping `album` explicitly; its files go unless a downloaded collection keeps
    /// it. Returns the collections that still keep it.
    ///
    /// - Throws: `not_found` when the album is not downloaded explicitly.
    @discardableResult
    public func remove(album id: String) async throws -> [String] {
        let (dropped, holders) = try await runtime.commit { db, _ in
            let dropped = try Ownership.dropExplicit(id, in: db)
            let holders = try Ownership.keptAlbums(in: db).first { $0.album == id }?.collections ?? []
            return (dropped, holders)
        }.value
        guard dropped else {
            throw FerryError(
                .notFound,
                holders.isEmpty
                    ? "album \(id) is not downloaded; `ferry audio downloads` lists what is"
                    : "album \(id) is kept by downloaded collection \(holders.joined(separator: ", ")), not on its own; remove the collection instead"
            )
        }
        await settleAfterChange()
        return holders
    }

    /// Stops keeping `collection`; its albums go unless they are explicit or another
    /// downloaded collection keeps them.
    public func remove(collection id: String) async throws {
        let dropped = try await runtime.commit { db, _ in try Ownership.dropCollection(id, in: db) }.value
        guard dropped else {
            throw FerryError(.notFound, "collection \(id) is not downloaded; `ferry audio downloads` lists what is")
        }
        await settleAfterChange()
    }

    /// Stops caching `track` (a track id or a part key) ahead of play: its download, in
    /// progress or waiting, is cancelled and its file removed.
    ///
    /// - Throws: `not_found` when the track is not cached ahead; `usage` when a kept album
    ///   holds its file (remove the album instead).
    public func remove(track id: String) async throws {
        let track = try await track(id)
        let dropped = try await runtime.commit { db, _ in
            guard try !Ownership.isKept(track.partKey, in: db) else {
                throw FerryError(.usage, "\(track.title) belongs to a downloaded album; remove the album (`ferry audio downloads` lists them)")
            }
            return try Ownership.dropAhead(track.partKey, in: db)
        }.value
        guard dropped else {
            throw FerryError(.notFound, "\(track.title) is not cached ahead of play; `ferry audio downloads` lists what is")
        }
        await settleAfterChange()
    }

    /// Queues what `files` lack and says what happens next. Asking again for something
    /// whose downloads failed for good tries them again (the person asked).
    private func plan(_ title: String, files: [AudioTrack]) async throws -> DownloadPlan {
        let name = AudioPlugin.name
        let failed = try await runtime.store.read { db in
            try files.flatMap { try Outbox.operations(plugin: name, entity: $0.partKey, in: db) }.filter { $0.state == .dead }
        }
        for operation in failed { try await runtime.retry(operation) }
        var report = await settleAfterChange()
        report.queued += failed.count
        let complete = try await completeFiles()
        let missing = files.filter { !complete.contains($0.partKey) }
        let state = await runtime.connectivity.current()
        return DownloadPlan(
            title: title,
            tracks: files.count,
            alreadyDownloaded: files.count - missing.count,
            queued: report.queued,
            bytes: missing.reduce(0) { $0 + $1.byteSize },
            held: missing.isEmpty || state.satisfies(.unmetered)
                ? nil : "downloads wait for an unmetered connection (Wi-Fi or wired); now \(state.summary)"
        )
    }

    /// Brings the files in line with a change already committed, which stands whatever
    /// happens here: a settle that fails (a full disk) is logged, not thrown as if the
    /// change had not been made, and the next sync's pull settles again.
    @discardableResult
    func settleAfterChange() async -> Keeper.Report {
        do {
            return try await Keeper(plugin: plugin, context: context).settle()
        } catch {
            runtime.logger.warning("audio: the change is recorded; its files follow at the next sync (\(error))")
            return Keeper.Report()
        }
    }

    /// Refuses a download whose files would not fit with the kept ones in `max_size`,
    /// naming the sizes and what could be removed.
    private func checkRoom(adding files: [AudioTrack], for what: String) async throws {
        let limit = plugin.settings.maxSize.bytes
        let (kept, keptBytes, removable) = try await runtime.store.read { db in
            let kept = try Ownership.keptFiles(in: db)
            return (kept, try Library.bytes(of: kept, in: db), try Self.removable(in: db))
        }
        let adding = Self.deduplicated(files).filter { !kept.contains($0.partKey) }.reduce(0) { $0 + $1.byteSize }
        guard keptBytes + adding > limit else { return }
        throw FerryError(
            .storageUnavailable,
            "\(what) needs \(ByteCount(adding)) and kept downloads already take \(ByteCount(keptBytes)) of the \(ByteCount(limit)) limit (plugins.audio.max_size)"
                + (removable.isEmpty ? "" : "; remove one first: \(removable.prefix(5).joined(separator: ", "))")
                + ", or raise plugins.audio.max_size"
        )
    }

    /// What a person can remove to make room, largest first: explicit albums and downloaded
    /// collections, each with its size and the command that removes it.
    private static func removable(in db: Database) throws -> [String] {
        var candidates: [(bytes: Int64, text: String)] = []
        for kept in try Ownership.keptAlbums(in: db) where kept.explicit {
            guard let album = try Library.album(kept.album, in: db) else { continue }
            candidates.append((album.bytes, "`ferry audio remove album \(album.id)` (\(album.title), \(ByteCount(album.bytes)))"))
        }
        for id in try Ownership.downloadedCollections(in: db) {
            guard let collection = try Library.collection(id, in: db) else { continue }
            let files = Set(try collection.albumIds.compactMap { try Library.album($0, in: db) }.flatMap(\.trackGroup).map(\.partKey))
            let bytes = try Library.bytes(of: files, in: db)
            candidates.append((bytes, "`ferry audio remove collection \(id)` (\(collection.name), \(ByteCount(bytes)))"))
        }
        return candidates.sorted { $0.bytes > $1.bytes }.map(\.text)
    }

    static func deduplicated(_ tracks: [AudioTrack]) -> [AudioTrack] {
        var seen: Set<String> = []
        return tracks.filter { seen.insert($0.partKey).inserted }
    }
}
