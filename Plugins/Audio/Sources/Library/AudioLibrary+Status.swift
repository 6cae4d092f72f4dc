import Foundation
import GRDB
import SyncKernel

extension AudioLibrary {
    /// The downloads screen: in progress (per track, and overall), downloaded albums,
    /// downloaded collections, and tracks cached ahead of play.
    public func downloads() async throws -> DownloadsView {
        let name = AudioPlugin.name
        let partial = try await files.inProgress()
        let entries = try await files.entries()
        let operations = try await runtime.store.read { db in
            try Outbox.entitiesWithWork(plugin: name, includingDead: true, in: db).sorted().flatMap {
                try Outbox.operations(plugin: name, entity: $0, in: db)
            }
        }
        let inspector = QueueInspector(runtime: runtime)
        var inProgress: [TrackProgress] = []
        for operation in operations {
            let file = operation.entity
            guard let track = try await runtime.store.read({ db in try Library.file(file, in: db) }) else { continue }
            let state = operation.state == .inFlight ? "downloading" : try await inspector.explain(operation).text
            inProgress.append(
                TrackProgress(
                    file: file,
                    title: track.title,
                    received: partial[file] ?? 0,
                    total: track.byteSize,
                    state: state
                )
            )
        }
        let (ahead, kept, plays) = try await runtime.store.read { db in
            (
                try Ownership.aheadFiles(in: db), try Ownership.keptFiles(in: db),
                try Ownership.lastPlayed(in: db)
            )
        }
        var cached: [CachedTrack] = []
        for entry in entries where ahead.contains(entry.key) && !kept.contains(entry.key) {
            let track = try await runtime.store.read { db in try Library.file(entry.key, in: db) }
            cached.append(
                CachedTrack(file: entry.key, title: track?.title ?? entry.key, bytes: entry.bytes, lastPlayed: plays[entry.key])
            )
        }
        let albums = try await self.albums().filter { $0.explicit || !$0.collections.isEmpty }
        let collections = try await self.collections().filter(\.downloaded)
        return DownloadsView(
            inProgress: inProgress,
            received: inProgress.reduce(0) { $0 + $1.received },
            total: inProgress.reduce(0) { $0 + $1.total },
            albums: albums,
            collections: collections,
            cached: cached,
            usedBytes: try await files.usage().bytes,
            maxBytes: plugin.settings.maxSize.bytes
        )
    }
}
