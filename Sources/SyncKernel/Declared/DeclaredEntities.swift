import Foundation
import GRDB

/// The local documents of declared domains, one table for all of them.
public enum DeclaredEntities {
    /// The table's schema step, one of the kernel's.
    static let migration = StoreMigration("kernel.v1.declared_entities") { db in
        try db.cachedStatement(
            sql: """
                CREATE TABLE kernel_declared_entities (
                    domain TEXT NOT NULL,
                    entity TEXT NOT NULL,
                    body BLOB NOT NULL,
                    PRIMARY KEY (domain, entity)
                )
                """
        ).execute()
    }

    /// An entity as the CLI shows it.
    public struct Row: Sendable, Encodable {
        /// The entity key.
        public let entity: String
        /// The document, as the JSON text it was stored as.
        public let body: String
    }

    static func upsert(domain: String, entity: String, body: Data, in db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO kernel_declared_entities (domain, entity, body) VALUES (?, ?, ?)"
        ).execute(arguments: [domain, entity, body])
    }

    /// Makes the local document show `operation` with `body`: PUT and POST store the body,
    /// PATCH merges it into the document (JSON merge patch), DELETE removes the document.
    static func apply(
        _ operation: DeclaredOperation,
        body: Data,
        domain: String,
        entity: String,
        in db: Database
    ) throws {
        if operation.removes {
            try delete(domain: domain, entity: entity, in: db)
        } else if operation.method.uppercased() == "PATCH" {
            guard let current = try document(domain: domain, entity: entity, in: db) else {
                return try upsert(domain: domain, entity: entity, body: body, in: db)
            }
            try upsert(domain: domain, entity: entity, body: try JSONMergePatch.apply(body, to: current), in: db)
        } else {
            try upsert(domain: domain, entity: entity, body: body, in: db)
        }
    }

    /// The local document of `entity`, nil when there is none.
    static func document(domain: String, entity: String, in db: Database) throws -> Data? {
        try Data.fetchOne(
            db.cachedStatement(sql: "SELECT body FROM kernel_declared_entities WHERE domain = ? AND entity = ?"),
            arguments: [domain, entity]
        )
    }

    static func delete(domain: String, entity: String, in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM kernel_declared_entities WHERE domain = ? AND entity = ?")
            .execute(arguments: [domain, entity])
    }

    static func rename(domain: String, from localID: String, to remoteID: String, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE kernel_declared_entities SET entity = ? WHERE domain = ? AND entity = ?")
            .execute(arguments: [remoteID, domain, localID])
    }

    /// Removes the documents of `domain` the remote no longer has (not in `live`), except
    /// those with unsent operations; returns how many.
    static func sweep(domain: String, keeping live: Set<String>, in db: Database) throws -> Int {
        let working = try Outbox.entitiesWithWork(plugin: domain, in: db)
        let local = try String.fetchAll(
            db.cachedStatement(sql: "SELECT entity FROM kernel_declared_entities WHERE domain = ?"),
            arguments: [domain]
        )
        let gone = local.filter { !live.contains($0) && !working.contains($0) }
        for entity in gone { try delete(domain: domain, entity: entity, in: db) }
        return gone.count
    }

    /// The entities of `domain`, by key.
    public static func list(domain: String, in db: Database) throws -> [Row] {
        try GRDB.Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT entity, body FROM kernel_declared_entities WHERE domain = ? ORDER BY entity"
            ),
            arguments: [domain]
        ).map { Row(entity: $0["entity"], body: String(decoding: $0["body"] as Data, as: UTF8.self)) }
    }
}

extension FerryRuntime {
    /// The entity key of a document of `domain`: the one given, or else the one its
    /// declared `key` takes from `body`.
    ///
    /// - Throws: a `usage` error when neither gives a key.
    public func declaredEntity(domain: String, kind: String, given: String?, body: Data) throws -> String {
        if let given, !given.isEmpty { return given }
        guard let key = configuration.domains[domain]?.key else {
            throw FerryError(
                .usage,
                "give the entity key: ferry domain \(domain) \(kind) ENTITY (or declare domains.\(domain).key to take it from the document)"
            )
        }
        return try key.derive(from: body, domain: domain)
    }

    /// Submits `kind` on `entity` of a declared domain with a JSON `body`, and applies it
    /// to the local document: PUT and POST store the body, PATCH merges it into the
    /// document (JSON merge patch), DELETE removes the document.
    ///
    /// Honours the operation's `delivery` as `submit(_:local:)` does: queued operations
    /// commit with the local change; an `online_only` one is sent first, and the answer
    /// (or, when it carries no document, the same change) is stored once the remote agreed.
    ///
    /// - Throws: a `usage` error when the domain or the kind is unknown, or `body` is not JSON.
    public func submitDeclared(domain: String, kind: String, entity: String, body: Data) async throws -> SubmitResult {
        guard let declared = registry.plugin(named: domain) as? DeclaredDomain else {
            throw FerryError(.usage, "no domain \(domain) in \(configuration.file); declare it under domains:")
        }
        guard let operation = declared.settings.operations[kind] else {
            throw FerryError(
                .usage,
                "domain \(domain) has no operation \(kind); it has: \(declared.settings.operations.keys.sorted().joined(separator: ", "))"
            )
        }
        guard (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) != nil else {
            throw FerryError(.usage, "the body is not JSON; pass e.g. --body '{\"title\": \"x\"}'")
        }

        // The document as the remote last sent it: the version a change is made on.
        let base = try await store.read { db in try DeclaredEntities.document(domain: domain, entity: entity, in: db) }
        // The remote answers a patch of a document it does not have with 404: queued, it
        // could never be sent.
        if base == nil, operation.method.uppercased() == "PATCH" {
            throw FerryError(
                .notFound,
                "domain \(domain) has no document \(entity) here to patch; put it first (ferry domain \(domain) put \(entity) --body ...), or pull it (ferry run --once) if another device made it"
            )
        }
        let new = NewOperation(plugin: domain, kind: kind, entity: entity, payloadJSON: body, base: base)
        return try await submit(new) { db in
            try DeclaredEntities.apply(operation, body: body, domain: domain, entity: entity, in: db)
        }
    }
}
