import Foundation
import GRDB

/// The conflicts table: every conflict a policy settled (for the record) and every
/// one that waits for a person.
public enum ConflictStore {
    static func insert(_ report: ConflictReport, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO kernel_conflicts
                    (id, operation_id, plugin, kind, entity, policy, status, local, remote, fields, reason, outcome,
                     created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
                report.id, report.operationID.lowercasedString, report.plugin, report.kind, report.entity,
                report.policy.rawValue, report.status, report.local, report.remote,
                report.fields.isEmpty ? nil : String(decoding: try JSONEncoder().encode(report.fields), as: UTF8.self),
                report.reason, report.outcome,
                report.createdAt.timeIntervalSince1970,
            ])
    }

    /// Conflicts, newest first, at most 500; `openOnly` keeps those that wait for a person.
    public static func list(openOnly: Bool, in db: Database) throws -> [ConflictReport] {
        let filter = openOnly ? "WHERE outcome = 'open'" : ""
        return try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM kernel_conflicts \(filter) ORDER BY created_at DESC LIMIT 500"))
            .map(ConflictReport.init(row:))
    }

    /// The conflict with id `id`, or the only one whose id starts with it (a short id,
    /// compared as text: `%` and `_` are no wildcards); nil when there is none.
    ///
    /// - Throws: a `usage` error when several conflicts start with `id`.
    public static func find(_ id: String, in db: Database) throws -> ConflictReport? {
        guard !id.isEmpty else { return nil }
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT * FROM kernel_conflicts WHERE substr(id, 1, length(?1)) = ?1 ORDER BY id != ?1 LIMIT 2"
            ),
            arguments: [id]
        )
        if rows.count > 1, rows[0]["id"] as String != id {
            throw FerryError(.usage, "\(id) matches several conflicts; give more of the id")
        }
        return rows.first.map(ConflictReport.init(row:))
    }

    static func setOutcome(_ id: String, _ outcome: String, now: Date, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE kernel_conflicts SET outcome = ?, resolved_at = ? WHERE id = ?")
            .execute(arguments: [outcome, now.timeIntervalSince1970, id])
    }
}
