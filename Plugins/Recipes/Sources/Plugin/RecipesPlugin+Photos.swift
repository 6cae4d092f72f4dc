import Foundation
import GRDB
import SyncKernel

extension RecipesPlugin {
    /// A photo the remote holds that a saved recipe lacks locally.
    struct MissingPhoto: Sendable {
        var id: String
        var sha256: String
        var type: String?
        var oldFile: String?
    }

    /// Downloads the photos of saved recipes whose local copy is missing or stale, each
    /// verified against the digest the remote announced before it counts.
    func downloadPhotos(_ context: PluginContext) async throws {
        let wanted = try await context.store.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT r.id, r.remote_photo_sha256, r.remote_photo_type, r.photo_file, r.photo_sha256
                        FROM recipes_recipes r JOIN recipes_saved s ON s.recipe_id = r.id
                        WHERE r.remote_photo_sha256 IS NOT NULL
                        """
                )
            ).map { row in
                (
                    MissingPhoto(
                        id: row["id"],
                        sha256: row["remote_photo_sha256"],
                        type: row["remote_photo_type"],
                        oldFile: row["photo_file"]
                    ),
                    row["photo_sha256"] as String?
                )
            }
        }
        for (photo, localDigest) in wanted where RecipeID.isValid(photo.id) {
            let present =
                photo.oldFile.map { FileManager.default.fileExists(atPath: photos.url(for: $0).path) } ?? false
            if present, localDigest == photo.sha256 { continue }
            try await download(photo, context: context)
        }
    }

    private func download(_ photo: MissingPhoto, context: PluginContext) async throws {
        let response: HTTPResponse
        do {
            response = try await context.transport.send(HTTPRequest("GET", "/v1/recipes/\(photo.id)/photo"))
        } catch let failure as RemoteFailure
            where (400..<500).contains(failure.status) && ![401, 408, 429].contains(failure.status)
        {
            logger.warning("recipes: the photo of \(photo.id) could not be fetched: \(failure.reason)")
            return
        }
        let digest = SHA256Hasher.hex(response.body)
        guard digest == photo.sha256 else {
            logger.warning(
                "recipes: the photo of \(photo.id) does not match its announced digest; it will be fetched again on the next pull"
            )
            return
        }
        guard
            let kind = ImageKind.sniff(response.body)
                ?? response.headers["content-type"].flatMap(ImageKind.init(contentType:))
        else {
            logger.warning("recipes: the photo of \(photo.id) is not an image format Ferry knows; skipped")
            return
        }
        let stored = try photos.write(response.body, id: photo.id, kind: kind)
        let kept = try await context.store.write { db -> Bool in
            guard try SavedSet.contains(photo.id, in: db), var recipe = try Recipe.find(photo.id, in: db),
                recipe.remotePhotoSHA256 == photo.sha256
            else { return false }
            recipe.photoFile = stored.file
            recipe.photoSHA256 = stored.sha256
            try recipe.save(in: db)
            return true
        }
        if !kept {
            photos.remove(stored.file)
        } else if let old = photo.oldFile, old != stored.file {
            photos.remove(old)
        }
    }

    /// Forgets photos of recipes that are neither saved, nor the user's, nor waiting to be
    /// sent, and removes files no row refers to (left-overs of a crash).
    func sweepPhotos(_ context: PluginContext) async throws {
        let name = Self.name
        let (orphaned, kept) = try await context.store.write { db -> ([String], Set<String>) in
            let waiting = try Outbox.entitiesWithWork(plugin: name, in: db)
            let candidates = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id, photo_file FROM recipes_recipes
                        WHERE photo_file IS NOT NULL AND mine = 0 AND id NOT IN (SELECT recipe_id FROM recipes_saved)
                        """
                )
            ).filter { !waiting.contains($0["id"]) }
            for row in candidates {
                try db.cachedStatement(
                    sql: "UPDATE recipes_recipes SET photo_file = NULL, photo_sha256 = NULL WHERE id = ?"
                ).execute(arguments: [row["id"] as String])
            }
            let kept = try String.fetchSet(
                db.cachedStatement(sql: "SELECT photo_file FROM recipes_recipes WHERE photo_file IS NOT NULL")
            )
            return (candidates.map { $0["photo_file"] }, kept)
        }
        for file in orphaned { photos.remove(file) }
        // File ages are wall-clock facts about the disk, not kernel decisions.
        photos.sweep(keeping: kept, olderThan: Date().addingTimeInterval(-600))
    }
}
