import Foundation
import GRDB
import SyncKernel

extension RecipesPlugin {
    /// `PUT /v1/recipes/{id}` create-only (a 409 means the recipe already exists: the
    /// conflict policy adopts it), then `PUT /v1/recipes/{id}/photo`. The kernel keys each
    /// request of an operation for the remote, the same way on a resend after a crash, so
    /// neither part happens twice.
    func upload(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        let payload = try operation.decodePayload(UploadPayload.self)
        var headers = [("Content-Type", "application/json")]
        if !operation.force { headers.append(("If-None-Match", "*")) }
        let created = try await context.transport.send(
            HTTPRequest(
                "PUT",
                "/v1/recipes/\(operation.entity)",
                headers: headers,
                body: Data(payload.document.utf8)
            )
        )
        var entity = created.body
        var photoDigest: String?
        if let file = payload.photoFile, let type = payload.photoType {
            if let bytes = photos.read(file) {
                let stored = try await context.transport.send(
                    HTTPRequest(
                        "PUT",
                        "/v1/recipes/\(operation.entity)/photo",
                        headers: [("Content-Type", type)],
                        body: bytes
                    )
                )
                entity = stored.body
                photoDigest = SHA256Hasher.hex(bytes)
            } else {
                logger.warning(
                    "recipes: the photo of \(operation.entity) (\(file)) is gone from \(photos.folder.path); uploading the recipe without it"
                )
            }
        }
        let now = context.clock.now()
        let remote = entity
        let digest = photoDigest
        return .delivered { db in
            var recipe = try Recipe.fromRemote(remote, keeping: try Recipe.find(operation.entity, in: db), now: now)
            if let digest, recipe.photoFile != nil { recipe.photoSHA256 = digest }
            try recipe.save(in: db)
        }
    }

    /// `PUT /v1/saved-recipes/{id}`: idempotent on the remote.
    func save(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        _ = try await context.transport.send(
            HTTPRequest("PUT", "/v1/saved-recipes/\(operation.entity)")
        )
        return .delivered
    }

    /// `DELETE /v1/saved-recipes/{id}`: idempotent on the remote.
    func unsave(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        _ = try await context.transport.send(
            HTTPRequest("DELETE", "/v1/saved-recipes/\(operation.entity)")
        )
        return .delivered
    }
}
