import Foundation
import GRDB

/// Local ids given to entities created offline, and the ids the remote gave them later.
public enum IDMappings {
    /// The local entity of `operation` is `remoteID` on the remote (a delivered create, or a
    /// create the remote answered with its own entity): the kernel's mapping and queue, then
    /// the plugin's rows.
    static func remap(
        _ operation: QueuedOperation,
        to remoteID: String,
        plugin: any SyncPlugin,
        now: Date,
        in db: Database
    ) throws {
        try remap(plugin: operation.plugin, localID: operation.entity, remoteID: remoteID, now: now, in: db)
        try plugin.remap(localID: operation.entity, to: remoteID, in: db)
    }

    /// Records that `localID` is now `remoteID`, and rewrites every operation of `plugin`
    /// in the outbox (dead letters included) that refers to it: its entity key (also a
    /// composite key such as `round/movie/member` that contains it) and any JSON string of
    /// its payload equal to it. The kernel calls it when a send returns a `remoteID`.
    static func remap(plugin: String, localID: String, remoteID: String, now: Date, in db: Database) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO kernel_id_mappings (plugin, local_id, remote_id, created_at) VALUES (?, ?, ?, ?)"
        ).execute(arguments: [plugin, localID, remoteID, now.timeIntervalSince1970])
        try db.cachedStatement(
            sql: "UPDATE kernel_operations SET entity = replace(entity, ?, ?) WHERE plugin = ? AND instr(entity, ?) > 0"
        ).execute(arguments: [localID, remoteID, plugin, localID])
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT seq, payload FROM kernel_operations WHERE plugin = ? AND instr(CAST(payload AS TEXT), ?) > 0"
            ),
            arguments: [plugin, localID]
        )
        for row in rows {
            let payload: Data = row["payload"]
            let rewritten = try rewrite(payload, replacing: localID, with: remoteID)
            try OutboxQueries.setPayload(rewritten, of: row["seq"], in: db)
        }
    }

    /// The remote id of `localID`, once known.
    public static func remoteID(plugin: String, localID: String, in db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT remote_id FROM kernel_id_mappings WHERE plugin = ? AND local_id = ?"),
            arguments: [plugin, localID]
        )
    }

    static func rewrite(_ payload: Data, replacing localID: String, with remoteID: String) throws -> Data {
        let object = try JSONSerialization.jsonObject(with: payload, options: [.fragmentsAllowed])
        let rewritten = replace(object, localID, remoteID)
        return try SortedJSON.data(rewritten)
    }

    private static func replace(_ value: Any, _ localID: String, _ remoteID: String) -> Any {
        switch value {
        case let text as String: return text == localID ? remoteID : text
        case let array as [Any]: return array.map { replace($0, localID, remoteID) }
        case let object as [String: Any]: return object.mapValues { replace($0, localID, remoteID) }
        default: return value
        }
    }
}
