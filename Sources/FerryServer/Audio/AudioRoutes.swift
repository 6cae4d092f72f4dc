import Foundation

/// `/v1/audio`: artists, albums with tracks, collections of albums, and track files with Range support.
enum AudioRoutes {
    static let scope = "global"

    static var routes: [Route] {
        [
            listRoute("/v1/audio/artists", "audio_artists", key: "artists"),
            listRoute("/v1/audio/albums", "audio_albums", key: "albums"),
            Route(.get, "/v1/audio/albums/changes", handler: ChangesFeed.handler("audio_albums") { _ in scope }),
            showRoute("/v1/audio/albums/{id}", "audio_albums", code: "album_not_found"),
            listRoute("/v1/audio/collections", "audio_collections", key: "collections"),
            Route(
                .get,
                "/v1/audio/collections/changes",
                handler: ChangesFeed.handler("audio_collections") { _ in scope }
            ),
            showRoute("/v1/audio/collections/{id}", "audio_collections", code: "collection_not_found"),
            Route(.get, "/v1/audio/files/{part_key}", batchable: false, handler: AudioFiles.serve),
            Route(.put, "/admin/audio/collections/{id}", access: .loopback, batchable: false, handler: putCollection),
        ]
    }

    static func listRoute(_ path: String, _ collection: String, key: String) -> Route {
        Route(.get, path) { _, env in
            let items = try await env.database.read { db in try Entities.list(db, collection, scope: scope) }
            return .json([key: .array(items)])
        }
    }

    static func showRoute(_ path: String, _ collection: String, code: String) -> Route {
        Route(.get, path) { request, env in
            let id = try Identifier.validated(request.parameter("id"))
            let item = try await env.database.read { db in
                try Entities.require(db, collection, scope: scope, id: id, code: code)
            }
            return .entity(item)
        }
    }

    /// Admin: creates or changes a collection's name and album membership (to exercise clients' reconciliation).
    static func putCollection(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let id = try Identifier.validated(request.parameter("id"))
        let body = try request.jsonObject(allowing: ["name", "album_ids"])
        guard let albumIDs = body["album_ids"]?.arrayValue?.compactMap(\.stringValue),
            albumIDs.count == body["album_ids"]?.arrayValue?.count
        else {
            throw APIError.invalidField("album_ids", "album_ids must be an array of album id strings.")
        }
        let name = try body.optionalString("name")
        let now = env.now
        return try await env.database.commit(now: now) { db in
            for albumID in albumIDs where try Entities.fetch(db, "audio_albums", scope: scope, id: albumID) == nil {
                throw APIError.notFound("album_not_found", "No album '\(albumID)'.")
            }
            let current = try Entities.fetch(db, "audio_collections", scope: scope, id: id)
            try Conditional.check(request, current: current)
            let data: JSON = [
                "name": .string(name ?? current?["name"]?.stringValue ?? id),
                "album_ids": .array(albumIDs.map(JSON.string)),
            ]
            return (
                try Entities.put(db, "audio_collections", scope: scope, id: id, data: data, now: now), current == nil
            )
        } answer: { (collection, created) in
            .entity(collection, status: created ? .created : .ok)
        }
    }
}
