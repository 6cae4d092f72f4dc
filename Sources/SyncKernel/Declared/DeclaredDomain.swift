import Foundation
import GRDB

/// A domain declared in YAML alone. Its entities are JSON documents kept in
/// `kernel_declared_entities`; each operation is the HTTP call its YAML names, with the
/// operation's payload as the body. It gets queueing, retries, connectivity, conflicts,
/// a pull and a CLI (`ferry domain NAME ...`) from the kernel like any plugin.
public struct DeclaredDomain: SyncPlugin {
    /// The type's name; each declared domain runs under its own name (`pluginName`), the key
    /// under `domains:`.
    public static let name = "domain"
    /// Empty: a declared domain's operations and their policies come from its YAML, per
    /// instance.
    public static let operations: [String: OperationPolicy] = [:]

    /// The domain's name: its key under `domains:`.
    public let pluginName: String
    /// The domain's section of `config.yaml`.
    public let settings: DeclaredDomainSettings

    /// Creates the domain named by `context.name` from its section.
    public init(settings: DeclaredDomainSettings, context: PluginContext) {
        self.pluginName = context.name
        self.settings = settings
    }

    /// The policy of each declared operation, with the configuration's retry overrides.
    func policies(globalRetry: RetryOverride) -> [String: OperationPolicy] {
        settings.operations.mapValues { operation in
            var policy = operation.policy
            policy.retry = globalRetry.applied(to: RetryPolicy.standard)
            if let retry = settings.retry { policy.retry = retry.applied(to: policy.retry) }
            if let retry = operation.retry { policy.retry = retry.applied(to: policy.retry) }
            return policy
        }
    }

    /// Makes the HTTP call the operation's kind declares, with the payload as its JSON body
    /// (none for GET and DELETE). A delete's later writes create the document again. A JSON
    /// object in the answer replaces the local document
    /// (the kernel then puts the entity's later operations on top again), an empty answer
    /// leaves it showing the operation; an answer that is not a JSON object goes again
    /// (the remote replays it whole), one that names another `id` makes the operation a dead
    /// letter; both keep the local document.
    public func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        guard let declared = settings.operations[operation.kind] else {
            throw FerryError(
                .plugin,
                "domain \(pluginName) has no operation \(operation.kind); check domains.\(pluginName).operations"
            )
        }
        let method = declared.method.uppercased()
        let hasBody = method != "GET" && method != "DELETE"
        var headers = hasBody ? [("Content-Type", "application/json")] : []
        if declared.isConditional { headers += operation.ifMatch }
        if declared.createOnly == true, !operation.force { headers.append(("If-None-Match", "*")) }
        let request = HTTPRequest(
            method,
            Self.path(declared.path, entity: operation.entity),
            headers: headers,
            body: hasBody ? operation.payload : nil
        )
        let domain = pluginName
        let entity = operation.entity
        let removed: LocalChange = { db in try DeclaredEntities.delete(domain: domain, entity: entity, in: db) }
        let response: HTTPResponse
        do {
            response = try await context.transport.send(request)
        } catch let failure as RemoteFailure where failure.status == 404 && declared.removes {
            // Never on the remote, or deleted there already: what the delete asked for.
            return .deleted(alreadyGone: "\(entity) was not on the remote", apply: removed)
        }
        if declared.removes { return .deleted(apply: removed) }
        guard !response.body.isEmpty else {
            // No document in the answer: the local document shows the operation as written.
            let payload = operation.payload
            return .delivered { db in
                try DeclaredEntities.apply(declared, body: payload, domain: domain, entity: entity, in: db)
            }
        }
        try Self.checkAnswer(response.body, entity: operation.entity, request: "\(method) \(request.path)")
        let body = response.body
        return .delivered(remote: body) { db in
            try DeclaredEntities.upsert(domain: domain, entity: entity, body: body, in: db)
        }
    }

    /// Follows the declared feed; the kernel puts a document's unsent operations on top of
    /// the remote's state again (`reapply`). A resync removes the documents the remote no
    /// longer has, except those with unsent operations.
    public func pull(_ context: PluginContext) async throws -> PullSummary {
        guard let path = settings.pull else { return PullSummary() }
        let domain = pluginName
        let only = settings.pullOnly ?? [:]
        return try await context.follow(path) { change, db in
            guard let entity = change.entity, Self.matches(entity, only) else {
                try DeclaredEntities.delete(domain: domain, entity: change.id, in: db)
                return .deleted
            }
            try DeclaredEntities.upsert(domain: domain, entity: change.id, body: entity, in: db)
            return .upserted
        } sweep: { live, db in
            try DeclaredEntities.sweep(domain: domain, keeping: live, in: db)
        }
    }

    /// Whether `document` has every field value of `only` (compared as text).
    static func matches(_ document: Data, _ only: [String: String]) -> Bool {
        guard !only.isEmpty else { return true }
        guard let object = try? JSONSerialization.jsonObject(with: document) as? [String: Any] else { return false }
        return only.allSatisfy { field, value in object[field].map { "\($0)" } == value }
    }

    /// Shows an unsent operation on the document again, as `submitDeclared` did locally.
    public func reapply(_ operation: QueuedOperation, in db: Database) throws {
        guard let declared = settings.operations[operation.kind] else { return }
        try DeclaredEntities.apply(
            declared,
            body: operation.payload,
            domain: pluginName,
            entity: operation.entity,
            in: db
        )
    }

    /// Refuses an answer that is not the entity the operation wrote: not a JSON object, or
    /// one whose `id` names another entity. The local document stays as it was and the
    /// operation becomes a dead letter with this reason.
    static func checkAnswer(_ body: Data, entity: String, request: String) throws {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            // Garbled on the way (a proxy's page, a body cut short): sent again with the same
            // Idempotency-Key, the remote replays the answer it stored.
            throw FerryError(
                .remoteUnavailable,
                "the answer to \(request) is not a JSON object; the local document was kept and the write goes again"
            )
        }
        if let id = object["id"], (id as? String) != entity {
            throw FerryError(
                .plugin,
                "the answer to \(request) is another entity (id \(id), expected \(entity)); the local document was kept"
            )
        }
    }

    /// Another account signed in: its documents are fetched again.
    public func forgetAccountData(in db: Database) throws {
        try db.cachedStatement(sql: "DELETE FROM kernel_declared_entities WHERE domain = ?")
            .execute(arguments: [pluginName])
    }

    /// Undoes a discarded operation: the document shows again as it was before it (its
    /// base, the last synced state), or leaves when it did not exist then; the entity is
    /// gone with it in that case, and its other operations go too.
    public func discarded(_ operation: QueuedOperation, in db: Database) throws -> Bool {
        guard let base = operation.base else {
            try DeclaredEntities.delete(domain: pluginName, entity: operation.entity, in: db)
            return true
        }
        try DeclaredEntities.upsert(domain: pluginName, entity: operation.entity, body: base, in: db)
        return false
    }

    /// Replaces the local document with the remote's, when the conflict carried it.
    public func adoptRemote(_ conflict: ConflictReport, in db: Database) throws {
        if conflict.remoteDeleted { return try DeclaredEntities.delete(domain: pluginName, entity: conflict.entity, in: db) }
        guard let remote = conflict.remote else { return }
        try DeclaredEntities.upsert(domain: pluginName, entity: conflict.entity, body: remote, in: db)
    }

    /// Renames the local document kept under `localID` to `remoteID`.
    public func remap(localID: String, to remoteID: String, in db: Database) throws {
        try DeclaredEntities.rename(domain: pluginName, from: localID, to: remoteID, in: db)
    }

    /// A PATCH sets some fields of the document, so its conflicts merge field by field.
    public func fieldChanges(_ operation: QueuedOperation) throws -> Data? {
        settings.operations[operation.kind]?.method.uppercased() == "PATCH" ? operation.payload : nil
    }

    /// `path` with `{entity}` replaced by the percent-encoded entity key.
    static func path(_ template: String, entity: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        let encoded = entity.addingPercentEncoding(withAllowedCharacters: allowed) ?? entity
        return template.replacingOccurrences(of: "{entity}", with: encoded)
    }
}
