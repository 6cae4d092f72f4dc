import Foundation
import GRDB
import SyncKernel

/// A small real plugin for kernel and CLI tests: key/value items on a remote that
/// speaks `/items`, with every kind of operation the kernel supports.
///
/// Remote contract: `PUT /items/{key}` `{"value": ...}` (optional `If-Match`),
/// `PATCH /items/{key}` (a merge patch), `DELETE /items/{key}`, `POST /items` answering
/// `{"key": ...}`, `PUT|DELETE /saved/{key}`, `POST /ping`, and
/// `GET /items?since=CURSOR` answering `{"items": [...], "cursor": "..."}`.
public struct TestPlugin: SyncPlugin {
    public struct Settings: Codable, Sendable {
        /// Shown in status; exists so tests can check unknown-key errors in a plugin section.
        public var label: String?
        public init() {}
    }

    public static let name = "items"
    public static let summary = "Key/value items (a test plugin)"
    public static let operations: [String: OperationPolicy] = [
        "put": OperationPolicy(coalesce: .init(mode: .replace)),
        "patch": OperationPolicy(coalesce: .init(mode: .merge)),
        "delete": OperationPolicy(coalesce: .init(supersedes: ["put", "patch"])),
        "create": OperationPolicy(),
        "save": OperationPolicy(coalesce: .init(cancels: ["unsave"])),
        "unsave": OperationPolicy(coalesce: .init(cancels: ["save"])),
        "ping": OperationPolicy(delivery: .onlineOnly),
        "upload": OperationPolicy(requirement: .unmetered),
        // Refers to another item (`{"target": key}`); waits while that one has a local key.
        "link": OperationPolicy(),
    ]
    public static let migrations = [
        StoreMigration("items.v1.entries") { db in
            try db.cachedStatement(
                sql: """
                    CREATE TABLE items_entries (
                        key TEXT PRIMARY KEY,
                        value TEXT,
                        version INTEGER NOT NULL DEFAULT 0,
                        deleted INTEGER NOT NULL DEFAULT 0
                    )
                    """
            ).execute()
        }
    ]

    public let settings: Settings

    public init(settings: Settings, context: PluginContext) {
        self.settings = settings
    }

    /// An item as the remote sends it.
    public struct Item: Codable, Sendable, Equatable {
        public var key: String
        public var value: String?
        public var version: Int
        public var deleted: Bool?
        public var updatedAt: String?

        public init(key: String, value: String?, version: Int, deleted: Bool? = nil, updatedAt: String? = nil) {
            self.key = key
            self.value = value
            self.version = version
            self.deleted = deleted
            self.updatedAt = updatedAt
        }
    }

    struct ValueBody: Codable { var value: String? }
    struct CreatedBody: Codable { var key: String }
    struct LinkBody: Codable { var target: String }

    public func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        let path = "/items/\(operation.entity)"
        var headers: [(String, String)] = [("Content-Type", "application/json")]
        if !operation.force, let base = operation.base, let item = try? JSONDecoder.ferry.decode(Item.self, from: base)
        {
            headers.append(("If-Match", "\"\(item.version)\""))
        }
        switch operation.kind {
        case "put", "patch":
            let response = try await context.transport.send(
                HTTPRequest(
                    operation.kind == "put" ? "PUT" : "PATCH",
                    path,
                    headers: headers,
                    body: operation.payload
                )
            )
            let item = try response.decode(Item.self)
            return .delivered { db in try Self.store(item, in: db) }
        case "delete":
            _ = try await context.transport.send(HTTPRequest("DELETE", path, headers: headers))
            return .delivered
        case "create":
            let response = try await context.transport.send(
                HTTPRequest("POST", "/items", headers: headers, body: operation.payload)
            )
            let created = try response.decode(CreatedBody.self)
            return .delivered(remoteID: created.key)
        case "save", "unsave", "upload":
            let method = operation.kind == "unsave" ? "DELETE" : "PUT"
            _ = try await context.transport.send(HTTPRequest(method, "/saved/\(operation.entity)"))
            return .delivered
        case "ping":
            _ = try await context.transport.send(
                HTTPRequest("POST", "/ping", body: operation.payload)
            )
            return .delivered
        case "link":
            let target = try operation.decodePayload(LinkBody.self).target
            if target.hasPrefix("local-") {
                return .waitsFor(entity: target, reason: "item \(target) has not reached the remote yet")
            }
            _ = try await context.transport.send(HTTPRequest("POST", "/ping", body: operation.payload))
            return .delivered
        default:
            throw FerryError(.plugin, "items has no operation \(operation.kind)")
        }
    }

    public func pull(_ context: PluginContext) async throws -> PullSummary {
        try await context.follow("/items") { change, db in
            let item = change.isDeletion ? nil : try change.decode(Item.self)
            guard let item, item.deleted != true else {
                try db.cachedStatement(sql: "DELETE FROM items_entries WHERE key = ?").execute(arguments: [change.id])
                return .deleted
            }
            try Self.store(item, in: db)
            return .upserted
        } sweep: { live, db in
            let working = try Outbox.entitiesWithWork(plugin: Self.name, in: db)
            let gone = try String.fetchAll(db.cachedStatement(sql: "SELECT key FROM items_entries")).filter {
                !live.contains($0) && !working.contains($0)
            }
            for key in gone { try db.cachedStatement(sql: "DELETE FROM items_entries WHERE key = ?")
                .execute(arguments: [key]) }
            return gone.count
        }
    }

    /// Shows an unsent put, patch or delete on top of the remote's item again.
    public func reapply(_ operation: QueuedOperation, in db: Database) throws {
        switch operation.kind {
        case "put", "patch":
            guard let value = try operation.decodePayload(ValueBody.self).value else { return }
            try db.cachedStatement(
                sql: "INSERT INTO items_entries (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
            ).execute(arguments: [operation.entity, value])
        case "delete":
            try db.cachedStatement(sql: "DELETE FROM items_entries WHERE key = ?")
                .execute(arguments: [operation.entity])
        default:
            break
        }
    }

    public func remap(localID: String, to remoteID: String, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE items_entries SET key = ? WHERE key = ?")
            .execute(arguments: [remoteID, localID])
    }

    public func adoptRemote(_ conflict: ConflictReport, in db: Database) throws {
        guard let remote = conflict.remote else { return }
        try Self.store(try JSONDecoder.ferry.decode(Item.self, from: remote), in: db)
    }

    public func merge(base: Data?, local: Data, remote: Data, kind: String) throws -> Data {
        let mine = try JSONDecoder.ferry.decode(ValueBody.self, from: local).value ?? ""
        let theirs = try JSONDecoder.ferry.decode(Item.self, from: remote).value ?? ""
        return try JSONEncoder.ferry.encode(ValueBody(value: theirs + "+" + mine))
    }

    static func store(_ item: Item, in db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO items_entries (key, value, version) VALUES (?, ?, ?)")
            .execute(arguments: [item.key, item.value, item.version])
    }

    /// The local value of `key`.
    public static func value(of key: String, in db: Database) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM items_entries WHERE key = ?"), arguments: [key])
    }
}

extension TestPlugin {
    /// The local write of a `put`: the row and the operation in one transaction.
    public static func put(
        _ key: String,
        _ value: String,
        base: Item? = nil,
        in runtime: FerryRuntime
    ) async throws -> EnqueueResult {
        let operation = NewOperation(
            plugin: name,
            kind: "put",
            entity: key,
            payloadJSON: try JSONEncoder.ferry.encode(ValueBody(value: value)),
            base: try base.map { try JSONEncoder.ferry.encode($0) }
        )
        return try await runtime.commit { db, queue in
            try db.cachedStatement(
                sql: "INSERT INTO items_entries (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"
            ).execute(arguments: [key, value])
            queue.enqueue(operation)
        }.results.first ?? .cancelled
    }

    /// Queues an operation of `kind` on `key` with a JSON `payload`.
    public static func enqueue(
        _ kind: String,
        _ key: String,
        payload: [String: String] = [:],
        in runtime: FerryRuntime
    ) async throws -> EnqueueResult {
        let operation = try NewOperation(plugin: name, kind: kind, entity: key, payload: payload)
        return try await runtime.commit { _, queue in queue.enqueue(operation) }.results.first ?? .cancelled
    }
}
