import Foundation
import GRDB
import SyncKernel

/// Brings the library up to date from the albums and collections feeds, then reconciles
/// every downloaded collection with the albums it holds now.
struct AudioPull: Sendable {
    let context: PluginContext

    func run() async throws -> PullSummary {
        let logger = context.logger
        let albums = try await mirror(
            "/v1/audio/albums/changes",
            cursor: "albums",
            table: "audio_albums",
            id: { (album: AudioAlbum) in album.id },
            check: { $0.problem },
            store: { album, json, db in try Library.store(album, json: json, in: db) },
            delete: { id, db in
                // An album this device keeps stays, whatever the remote did with it.
                guard try !Ownership.keepsAlbum(id, in: db) else {
                    logger.warning("audio: album \(id) is gone from the server; it stays on this device, which keeps it")
                    return false
                }
                try Library.deleteAlbum(id, in: db)
                return true
            }
        )
        let collections = try await mirror(
            "/v1/audio/collections/changes",
            cursor: "collections",
            table: "audio_collections",
            id: { (collection: AudioCollection) in collection.id },
            check: { _ in nil },
            store: { collection, json, db in try Library.store(collection, json: json, in: db) },
            delete: { id, db in
                try Library.deleteCollection(id, in: db)
                return true
            }
        )
        let changes = try await context.commit { db, _ in try Reconciliation.run(in: db) }.value
        for line in changes.additions { context.logger.info("audio: \(line)") }
        for line in changes.removals { context.logger.warning("audio: \(line)") }
        return albums + collections
    }

    /// Follows one feed into `table`: an entity is stored whole, a deletion deletes (unless
    /// `delete` keeps the row and says so), and a resync removes the rows the remote no
    /// longer has. An entity that cannot be read, or that `check` refuses, is skipped with
    /// a warning: one bad album never blocks the rest of the library.
    private func mirror<Entity: Decodable & Sendable>(
        _ path: String,
        cursor: String,
        table: String,
        id: @escaping @Sendable (Entity) -> String,
        check: @escaping @Sendable (Entity) -> String?,
        store: @escaping @Sendable (Entity, Data, Database) throws -> Void,
        delete: @escaping @Sendable (String, Database) throws -> Bool
    ) async throws -> PullSummary {
        let logger = context.logger
        return try await context.follow(path, cursor: cursor) { change, db in
            guard let json = change.entity else { return try delete(change.id, db) ? .deleted : .skipped }
            let problem: String?
            var entity: Entity?
            do {
                entity = try change.decode(Entity.self)
                problem =
                    entity.map { id($0) != change.id ? "it names itself \(id($0))" : check($0) } ?? nil
            } catch {
                problem = "it could not be read (\(error))"
            }
            guard let entity, problem == nil else {
                logger.warning("audio: \(path) sent \(change.id.prefix(80)), which was skipped: \(problem ?? "")")
                return .skipped
            }
            try store(entity, json, db)
            return .upserted
        } sweep: { live, db in
            var removed = 0
            for id in try String.fetchAll(db, sql: "SELECT id FROM \(table)") where !live.contains(id) {
                if try delete(id, db) { removed += 1 }
            }
            return removed
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

        /// What now downloads: said at `info`, for who asks for it.
        var additions: [String] {
            added.map { "album \($0.album) is new in downloaded collection \($0.collection); downloading it" }
        }

        /// What is no longer kept on this device: a warning, which a person sees by default.
        var removals: [String] {
            removed.map { "album \($0.album) left downloaded collection \($0.collection)" }
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
