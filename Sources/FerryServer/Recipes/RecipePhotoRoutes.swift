import Foundation

/// `PUT/GET /v1/recipes/{id}/photo`: image bytes stored beside a recipe.
enum RecipePhotoRoutes {
    static func blobKey(_ id: String) -> String { "recipe-photo/\(id)" }

    static func put(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let user = try request.requireUser()
        let id = try Identifier.validated(request.parameter("id"))
        let contentType =
            request.header("Content-Type")?.split(separator: ";").first.map {
                String($0).trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        guard contentType.hasPrefix("image/"), contentType.count > 6 else {
            throw APIError(
                .unsupportedMediaType,
                "unsupported_media_type",
                "A photo needs Content-Type image/* (e.g. image/jpeg)."
            )
        }
        guard !request.body.isEmpty else { throw APIError.badRequest("missing_body", "The photo has no bytes.") }
        let bytes = request.body
        let now = env.now
        return try await env.database.commit(now: now) { db in
            var recipe = try Conditional.require(
                request,
                db,
                RecipeRoutes.collection,
                scope: RecipeRoutes.scope,
                id: id,
                code: "recipe_not_found"
            )
            guard recipe["owner_id"]?.stringValue == user.id else {
                throw APIError.forbidden("Only the recipe's owner may change its photo.")
            }
            let info = try Blobs.put(db, key: blobKey(id), contentType: contentType, data: bytes, now: now)
            recipe["photo"] = [
                "content_type": .string(info.contentType), "byte_size": .int(info.byteSize),
                "sha256": .string(info.sha256),
                "url": .string("/v1/recipes/\(id)/photo"),
            ]
            return try Entities.put(
                db,
                RecipeRoutes.collection,
                scope: RecipeRoutes.scope,
                id: id,
                data: recipe,
                now: now
            )
        } answer: { entity in
            .entity(entity)
        }
    }

    static func get(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let id = try Identifier.validated(request.parameter("id"))
        let key = blobKey(id)
        let found = try await env.database.read { db -> (Blobs.Info, Data)? in
            guard let info = try Blobs.info(db, key: key) else { return nil }
            return (info, try Blobs.bytes(db, key: key, offset: 0, length: info.byteSize) ?? Data())
        }
        guard let (info, bytes) = found else {
            throw APIError.notFound("photo_not_found", "Recipe '\(id)' has no photo.")
        }
        let etag = "\"\(info.sha256)\""
        if request.header("If-None-Match") == etag {
            return APIResponse(status: .notModified, headers: ["ETag": etag])
        }
        return APIResponse(status: .ok, headers: ["Content-Type": info.contentType, "ETag": etag], body: bytes)
    }
}
