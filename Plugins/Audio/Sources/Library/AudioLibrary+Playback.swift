import Foundation
import GRDB
import SyncKernel

extension AudioLibrary {
    /// Where `track` (a track id or a part key) plays from: the downloaded file, else the
    /// remote's file when online, else unavailable. A local hit counts as a play for the
    /// least-recently-played order.
    public func resolve(track id: String) async throws -> PlaybackSource {
        try await resolve(try await track(id), playing: true)
    }

    /// Where `track` plays from; `playing` counts a local hit as a play.
    private func resolve(_ track: AudioTrack, playing: Bool) async throws -> PlaybackSource {
        if let file = try await files.cachedFile(track.partKey, use: playing) { return .local(file.url) }
        let state = await runtime.connectivity.current()
        guard state.reachable else {
            return .unavailable("\(track.title) is not downloaded and the network is \(state.summary)")
        }
        return .remote(try await context.transport.baseURL().trimmingCharacters(in: ["/"]) + track.url)
    }

    /// Plays `track`: records when, and, on an unmetered connection only, caches it and the
    /// tracks after it (up to `cache_ahead` of `next`) ahead of play, skipping files
    /// already here or on their way. Returns where it plays from and how many files were
    /// queued.
    public func play(track id: String, next: [String] = []) async throws -> (source: PlaybackSource, queued: Int) {
        let track = try await track(id)
        var ahead = [track]
        for id in next.prefix(plugin.settings.cacheAhead) { ahead.append(try await self.track(id)) }
        let source = try await resolve(track, playing: true)
        if !(await runtime.connectivity.current().satisfies(.unmetered)) { ahead = [] }
        let complete = try await completeFiles()
        let now = runtime.clock.now()
        try await runtime.commit { [ahead] db, _ in
            try Ownership.played(track.id, at: now, in: db)
            for file in ahead {
                try Ownership.cacheAhead(file.partKey, present: complete.contains(file.partKey), now: now, in: db)
            }
        }
        let report = await settleAfterChange()
        return (source, report.queued)
    }

    /// Where each track of an album's group plays from.
    ///
    /// - Throws: `requires_connection` when none of them is playable: offline and none
    ///   downloaded (the message a player shows as its error banner).
    public func play(album id: String) async throws -> [(track: AudioTrack, source: PlaybackSource)] {
        let album = try await album(id)
        return try await playable(album.trackGroup, of: "album \(album.title)")
    }

    /// Where each track of a collection's albums plays from; throws as `play(album:)`.
    public func play(collection id: String) async throws -> [(track: AudioTrack, source: PlaybackSource)] {
        let collection = try await collection(id)
        let tracks = try await runtime.store.read { db in
            try collection.albumIds.compactMap { try Library.album($0, in: db) }.flatMap(\.trackGroup)
        }
        return try await playable(Self.deduplicated(tracks), of: "collection \(collection.name)")
    }

    private func playable(_ tracks: [AudioTrack], of what: String) async throws -> [(track: AudioTrack, source: PlaybackSource)] {
        var sources: [(track: AudioTrack, source: PlaybackSource)] = []
        for track in tracks { sources.append((track, try await resolve(track, playing: false))) }
        let playable = sources.filter { if case .unavailable = $0.source { return false } else { return true } }
        guard !playable.isEmpty else {
            throw FerryError(
                .requiresConnection,
                "none of the \(tracks.count) tracks of \(what) is downloaded, and there is no connection; connect, or download it while online"
            )
        }
        return sources
    }

    func track(_ id: String) async throws -> AudioTrack {
        guard let track = try await runtime.store.read({ db in try Library.track(id, in: db) }) else {
            throw FerryError(.notFound, "no track \(id) in the library on this device; `ferry audio albums --refresh` brings the server's")
        }
        return track
    }
}
