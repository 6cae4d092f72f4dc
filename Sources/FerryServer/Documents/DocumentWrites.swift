import Foundation

/// `PUT`, `PATCH` and `DELETE` of one document; each commits its effect with its
/// idempotency record (`ServerDatabase.commit`) and honours `If-Match` (`Conditional`).
enum DocumentWrites {
    /// `PUT …/documents/{id}`: creates (`201` + `Location`) or replaces (`200`) the whole
    /// document; `If-None-Match: *` makes it create-only (`409 document_exists`).
    static func put(_ kind: DocumentSpace.Kind) -> RouteHandler {
        { request, env in
            let space = try DocumentSpace(request, kind: kind)
            let id = try Identifier.validated(request.parameter("id"))
            let fields = try DocumentContent.fields(of: request, id: id)
            let createOnly = Conditional.isCreateOnly(request)
            let limit = env.configuration.maxBodyBytes
            let now = env.now
            return try await env.database.commit(now: now) { db in
                let current = try Entities.fetch(db, space.collection, scope: space.scope, id: id)
                if createOnly, let current {
                    throw APIError.conflict(
                        "document_exists",
                        "The document '\(id)' already exists in the domain '\(space.domain)'.",
                        current: current
                    )
                }
                try Conditional.check(request, current: current)
                let stored = try DocumentContent.save(
                    db,
                    space,
                    id: id,
                    fields: fields,
                    current: current,
                    limit: limit,
                    now: now
                )
                return (stored, current == nil)
            } answer: { (document, created) in
                .entity(
                    document,
                    status: created ? .created : .ok,
                    headers: created ? ["Location": space.location(id)] : [:]
                )
            }
        }
    }

    /// `PATCH …/documents/{id}`: a JSON merge patch (RFC 7386) on the stored document.
    static func patch(_ kind: DocumentSpace.Kind) -> RouteHandler {
        { request, env in
            let space = try DocumentSpace(request, kind: kind)
            let id = try Identifier.validated(request.parameter("id"))
            let changes = try DocumentContent.fields(of: request, id: id)
            let limit = env.configuration.maxBodyBytes
            let now = env.now
            return try await env.database.commit(now: now) { db in
                let current = try space.requireForPatch(request, db, id: id)
                let merged = MergePatch.apply(.object(changes), to: .object(DocumentContent.fields(of: current)))
                return try DocumentContent.save(
                    db,
                    space,
                    id: id,
                    fields: merged.objectValue ?? [:],
                    current: current,
                    limit: limit,
                    now: now
                )
            } answer: { document in
                .entity(document)
            }
        }
    }

    /// `DELETE …/documents/{id}`: `204`, leaving a tombstone in the domain's changes feed.
    static func delete(_ kind: DocumentSpace.Kind) -> RouteHandler {
        { request, env in
            let space = try DocumentSpace(request, kind: kind)
            let id = try Identifier.validated(request.parameter("id"))
            let now = env.now
            return try await env.database.commit(now: now) { db in
                _ = try space.requireForWrite(request, db, id: id)
                try Entities.delete(db, space.collection, scope: space.scope, id: id, now: now)
            } answer: { _ in
                .noContent
            }
        }
    }
}
