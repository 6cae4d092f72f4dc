/// `/v1/saved-recipes`: the caller's saved set. Save and unsave are idempotent.
enum SavedRecipeRoutes {
    static let collection = "saved_recipes"

    static var routes: [Route] {
        [
            Route(.get, "/v1/saved-recipes") { request, env in
                let user = try request.requireUser()
                let saved = try await env.database.read { db in try Entities.list(db, collection, scope: user.scope) }
                return .json(["saved_recipes": .array(saved)])
            },
            Route(
                .get,
                "/v1/saved-recipes/changes",
                handler: ChangesFeed.handler(collection) { try $0.requireUser().scope }
            ),
            Route(.put, "/v1/saved-recipes/{id}", handler: save),
            Route(.delete, "/v1/saved-recipes/{id}", handler: unsave),
        ]
    }

    static func save(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let user = try request.requireUser()
        let id = try Identifier.validated(request.parameter("id"))
        if !request.body.isEmpty { _ = try request.jsonObject(allowing: []) }
        let now = env.now
        return try await env.database.commit(now: now) { db in
            guard try Entities.fetch(db, RecipeRoutes.collection, scope: RecipeRoutes.scope, id: id) != nil else {
                throw APIError.notFound("recipe_not_found", "There is no recipe '\(id)' to save.")
            }
            if let existing = try Entities.fetch(db, collection, scope: user.scope, id: id) {
                return (existing, false)
            }
            let data: JSON = ["recipe_id": .string(id), "saved_at": .string(Timestamp.string(now))]
            return (try Entities.put(db, collection, scope: user.scope, id: id, data: data, now: now), true)
        } answer: { (entity, created) in
            .entity(entity, status: created ? .created : .ok)
        }
    }

    static func unsave(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let user = try request.requireUser()
        let id = try Identifier.validated(request.parameter("id"))
        let now = env.now
        return try await env.database.commit(now: now) { db in
            _ = try Entities.delete(db, collection, scope: user.scope, id: id, now: now)
        } answer: { _ in
            .noContent
        }
    }
}
