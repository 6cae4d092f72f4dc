import Foundation
import GRDB
import SyncKernel

/// Brings the library up to date from the albums and collections feeds, then reconciles
/// every downloaded collection with the albums it holds now.
struct AudioPull: Sendable {
    let context: PluginContext

    func run() async throws -> PullSummary {
        let albums = try await context.follow("/v1/audio/albums/changes", cursor: "albums") { change, db in
            guard let json = change.entity else {
                try Library.deleteAlbum(change.id, in: db)
                return .deleted
            }
            let album: AudioAlbum = try change.decode()
            try Self.check(album.id, change.id, "album")
            try Library.store(album, json: json, in: db)
            return .upserted
        } sweep: { live, db in
            let gone = try String.fetchAll(db, sql: "SELECT id FROM audio_albums").filter { !live.contains($0) }
            for id in gone { try Library.deleteAlbum(id, in: db) }
            return gone.count
        }
        let collections = try await context.follow("/v1/audio/collections/changes", cursor: "collections") { change, db in
            guard let json = change.entity else {
                try Library.deleteCollection(change.id, in: db)
                return .deleted
            }
            let collection: AudioCollection = try change.decode()
            try Self.check(collection.id, change.id, "collection")
            try Library.store(collection, json: json, in: db)
            return .upserted
        } sweep: { live, db in
            let gone = try String.fetchAll(db, sql: "SELECT id FROM audio_collections").filter { !live.contains($0) }
            for id in gone { try Library.deleteCollection(id, in: db) }
            return gone.count
        }
        let changes = try await context.store.write { db in try Reconciliation.run(in: db) }
        for line in changes.lines { context.logger.info("audio: \(line)") }
        return albums + collections
    }

    /// An entity whose id is not the one its change names is refused with its page.
    static func check(_ id: String, _ changeID: String, _ what: String) throws {
        guard id == changeID else {
            throw FerryError(.rejected, "the changes feed named \(what) \(changeID) but sent \(what) \(id)")
        }
    }
}

/// Collection downloads against the collections as the remote has them now: an album new
/// in a downloaded collection is recorded (its files are then queued), an album gone from
/// it loses that membership (its files go unless it is explicit or another downloaded
/// collection holds it), and a collection gone from the remote is no longer downloaded.
enum Reconciliation {
    struct Changes: Sendable {
        var added: [(collection: String, album: String)] = []
        var removed: [(collection: String, album: String)] = []
        var vanished: [String] = []

        var lines: [String] {
            added.map { "album \($0.album) is new in downloaded collection \($0.collection); downloading it" }
                + removed.map { "album \($0.album) left downloaded collection \($0.collection)" }
                + vanished.map { "collection \($0) is gone from the server; it is no longer downloaded" }
        }
    }

    static func run(in db: Database) throws -> Changes {
        var changes = Changes()
        for collection in try Ownership.downloadedCollections(in: db) {
            guard let live = try Library.collection(collection, in: db) else {
                _ = try Ownership.dropCollection(collection, in: db)
                changes.vanished.append(collection)
                continue
            }
            let recorded = try Ownership.members(of: collection, in: db)
            for album in live.albumIds where !recorded.contains(album) {
                try Ownership.record(album, in: collection, in: db)
                changes.added.append((collection, album))
            }
            for album in recorded.subtracting(live.albumIds).sorted() {
                try Ownership.forget(album, in: collection, in: db)
                changes.removed.append((collection, album))
            }
        }
        return changes
    }
}
