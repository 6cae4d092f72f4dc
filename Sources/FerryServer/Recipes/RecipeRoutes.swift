import Foundation

/// `/v1/recipes`: recipe documents (client-chosen ids, versions) and their photos.
///
/// Recipes are shared by all users; only a recipe's owner may replace it or its photo.
enum RecipeRoutes {
    static let collection = "recipes"
    static let scope = "global"

    static var routes: [Route] {
        [
            Route(.get, "/v1/recipes") { _, env in
                let recipes = try await env.database.read { db in try Entities.list(db, collection, scope: scope) }
                return .json(["recipes": .array(recipes)])
            },
            Route(.get, "/v1/recipes/changes", handler: ChangesFeed.handler(collection) { _ in scope }),
            Route(.get, "/v1/recipes/{id}") { request, env in
                let id = try Identifier.validated(request.parameter("id"))
                let recipe = try await env.database.read { db in
                    try Entities.require(db, collection, scope: scope, id: id, code: "recipe_not_found")
                }
                return .entity(recipe)
            },
            Route(.put, "/v1/recipes/{id}", handler: put),
            Route(.put, "/v1/recipes/{id}/photo", body: .upload, batchable: false, handler: RecipePhotoRoutes.put),
            Route(.get, "/v1/recipes/{id}/photo", batchable: false, handler: RecipePhotoRoutes.get),
        ]
    }

    /// Keys the server manages; ignored when a client sends them back.
    static let serverKeys: Set<String> = ["version", "updated_at", "created_at", "owner_id", "photo"]

    static func put(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let user = try request.requireUser()
        let id = try Identifier.validated(request.parameter("id"))
        var document = try request.jsonObject()
        if let bodyID = document["id"], bodyID != .string(id) {
            throw APIError.badRequest("id_mismatch", "The body's id does not match the path's id '\(id)'.")
        }
        _ = try document.requiredString("title")
        for key in serverKeys { document.removeValue(forKey: key) }
        let fields = document
        let now = env.now
        let createOnly = Conditional.isCreateOnly(request)
        return try await env.database.commit(now: now) { db in
            let current = try Entities.fetch(db, collection, scope: scope, id: id)
            if createOnly, let current {
                throw APIError.conflict("recipe_exists", "A recipe with id '\(id)' already exists.", current: current)
            }
            try Conditional.check(request, current: current)
            if let current, current["owner_id"]?.stringValue != user.id {
                throw APIError.forbidden("Only the recipe's owner may replace it.")
            }
            var data = JSON.object(fields)
            data["owner_id"] = .string(user.id)
            data["created_at"] = current?["created_at"] ?? .string(Timestamp.string(now))
            data["photo"] = current?["photo"] ?? .null
            return (try Entities.put(db, collection, scope: scope, id: id, data: data, now: now), current == nil)
        } answer: { (entity, created) in
            return .entity(
                entity,
                status: created ? .created : .ok,
                headers: created ? ["Location": "/v1/recipes/\(id)"] : [:]
            )
        }
    }
}
