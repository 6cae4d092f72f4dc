import Foundation

/// Where a request's documents live: a domain, in the caller's own scope or the shared one.
///
/// A domain needs no registration: its first write creates it. Its entities are stored in the
/// collection `doc:<domain>`, which no built-in collection (`movies`, `recipes`...) can be, so
/// a domain called `movies` never meets the movie list.
struct DocumentSpace: Sendable {
    /// Whose documents a route serves.
    enum Kind: Sendable, CaseIterable {
        /// `/v1/domains/{domain}/...`: the caller's own documents.
        case own
        /// `/v1/shared/{domain}/...`: one set shared by every signed-in user.
        case shared

        /// The path prefix of this kind's routes, with the `{domain}` parameter.
        var template: String {
            switch self {
            case .own: "/v1/domains/{domain}"
            case .shared: "/v1/shared/{domain}"
            }
        }
    }

    /// The entity scope of shared documents.
    static let sharedScope = "shared"
    /// The 404 code of a document that is absent or deleted.
    static let notFoundCode = "document_not_found"
    /// The longest domain name.
    static let maxDomainLength = 64

    let kind: Kind
    let domain: String
    /// The entity collection of the domain: `doc:<domain>`.
    let collection: String
    /// The entity scope: the caller's (`user:<id>`) or ``sharedScope``.
    let scope: String

    /// The space a request names through its `{domain}` parameter; a 400 `invalid_domain`
    /// for a bad name.
    init(_ request: APIRequest, kind: Kind) throws(APIError) {
        let user = try request.requireUser()
        let domain = try Self.validatedDomain(request.parameter("domain"))
        self.kind = kind
        self.domain = domain
        self.collection = "doc:\(domain)"
        self.scope = kind == .own ? user.scope : Self.sharedScope
    }

    /// The URL of one document.
    func location(_ id: String) -> String {
        kind.template.replacingOccurrences(of: "{domain}", with: domain) + "/documents/\(id)"
    }

    /// The live document `id`, or a 404 `document_not_found`.
    func require(_ db: any SQLSession, id: String) throws -> JSON {
        try Entities.require(db, collection, scope: scope, id: id, code: Self.notFoundCode)
    }

    /// The live document a conditional write changes, after checking `If-Match` against it
    /// (412 with `details.current: null` when there is none); without `If-Match`, a missing
    /// document is a 404 `document_not_found`.
    func requireForWrite(_ request: APIRequest, _ db: any SQLSession, id: String) throws -> JSON {
        try Conditional.require(request, db, collection, scope: scope, id: id, code: Self.notFoundCode)
    }

    /// The live document a patch changes, as `requireForWrite` finds it; a document that
    /// was deleted fails the patch as a conflict, 412 with `details.current: null`, with or
    /// without `If-Match`: the client's change met the deletion (a patch never creates).
    func requireForPatch(_ request: APIRequest, _ db: any SQLSession, id: String) throws -> JSON {
        do {
            return try requireForWrite(request, db, id: id)
        } catch let error as APIError where error.status == .notFound {
            let deleted = try db.fetchOne(
                sql: "SELECT 1 AS deleted FROM entities WHERE collection = ? AND scope = ? AND id = ? AND deleted = 1",
                arguments: [collection, scope, id]
            )
            guard deleted != nil else { throw error }
            throw APIError(
                .preconditionFailed,
                "document_deleted",
                "Document '\(id)' was deleted; a patch never creates one.",
                details: ["current": .null]
            )
        }
    }

    /// `value` when it is a domain name (1-64 of `a-z`, `0-9`, `_`, `-`, starting with a
    /// letter or digit), else a 400 `invalid_domain`.
    static func validatedDomain(_ value: String) throws(APIError) -> String {
        let scalars = value.unicodeScalars
        let isLowerAlphanumeric = { (scalar: Unicode.Scalar) in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
        }
        guard let first = scalars.first, scalars.count <= maxDomainLength, isLowerAlphanumeric(first),
            scalars.allSatisfy({ isLowerAlphanumeric($0) || $0 == "_" || $0 == "-" })
        else {
            throw APIError.badRequest(
                "invalid_domain",
                "Invalid domain '\(value.prefix(64))': use 1-\(maxDomainLength) of a-z, 0-9, '_' or '-', "
                    + "starting with a letter or digit.",
                details: ["domain": .string(String(value.prefix(128)))]
            )
        }
        return value
    }
}
