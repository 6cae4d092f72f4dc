/// The generic documents API, for any domain without routes of its own (one declared in
/// YAML, or a small plugin): JSON objects by client-chosen id, versioned, with a changes feed.
///
/// `/v1/domains/{domain}/...` serves the caller's own documents, `/v1/shared/{domain}/...`
/// one set shared by every signed-in user (``DocumentSpace``).
enum DocumentRoutes {
    static var routes: [Route] {
        DocumentSpace.Kind.allCases.flatMap(routes(for:))
    }

    /// The feed and document routes of one kind of space.
    static func routes(for kind: DocumentSpace.Kind) -> [Route] {
        let documents = kind.template + "/documents/{id}"
        return [
            Route(.get, kind.template + "/changes") { request, env in
                let space = try DocumentSpace(request, kind: kind)
                return try await ChangesFeed.handler(space.collection) { _ in space.scope }(request, env)
            },
            Route(.get, documents) { request, env in
                let space = try DocumentSpace(request, kind: kind)
                let id = try Identifier.validated(request.parameter("id"))
                let document = try await env.database.read { db in try space.require(db, id: id) }
                return .entity(document)
            },
            Route(.put, documents, handler: DocumentWrites.put(kind)),
            Route(.patch, documents, handler: DocumentWrites.patch(kind)),
            Route(.delete, documents, handler: DocumentWrites.delete(kind)),
        ]
    }
}
