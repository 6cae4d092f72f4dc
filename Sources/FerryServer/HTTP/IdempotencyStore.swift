import FerryHashing
import Foundation

/// Responses recorded per user and `Idempotency-Key`, replayed for a repeated request.
enum IdempotencyStore {
    /// A recorded response and the fingerprint of the request that produced it.
    struct Record: Sendable {
        var fingerprint: String
        var response: APIResponse
    }

    /// A request's key was answered by a write that committed after the dispatcher looked
    /// (on another server instance): its record, to replay instead of running the effect.
    struct Answered: Error {
        var record: Record
    }

    static func find(_ db: any SQLSession, userID: String, key: String) throws -> Record? {
        try db.fetchOne(
            sql: "SELECT fingerprint, status, headers, body FROM idempotency_keys WHERE user_id = ? AND key = ?",
            arguments: [userID, key]
        ).map(record)
    }

    /// The records of those of `keys` that have one, by key: a statement for every 512 keys.
    static func findAll(_ db: any SQLSession, userID: String, keys: [String]) throws -> [String: Record] {
        var records: [String: Record] = [:]
        let unique = Array(Set(keys))
        for start in stride(from: 0, to: unique.count, by: 512) {
            var chunk = Array(unique[start..<min(unique.count, start + 512)])
            // A power of two of placeholders (the last key repeated), so that batches of any
            // size prepare at most ten statements, each kept for the connection's life.
            let width = chunk.count <= 1 ? 1 : 1 << (Int.bitWidth - (chunk.count - 1).leadingZeroBitCount)
            chunk += Array(repeating: chunk[chunk.count - 1], count: width - chunk.count)
            var arguments: SQLArguments = [userID]
            arguments += SQLArguments(chunk)
            let rows = try db.fetchAll(
                sql: """
                    SELECT key, fingerprint, status, headers, body FROM idempotency_keys
                    WHERE user_id = ? AND key IN (\(chunk.map { _ in "?" }.joined(separator: ", ")))
                    """,
                arguments: arguments
            )
            for row in rows { records[row["key"]] = record(row) }
        }
        return records
    }

    private static func record(_ row: SQLRow) -> Record {
        let headers =
            (try? headersDecoder.decode([String: String].self, from: Data((row["headers"] as String).utf8))) ?? [:]
        return Record(
            fingerprint: row["fingerprint"],
            response: APIResponse(status: .init(code: row["status"]), headers: headers, body: row["body"])
        )
    }

    static func save(
        _ db: any SQLSession,
        userID: String,
        key: String,
        fingerprint: String,
        response: APIResponse,
        now: Date
    ) throws {
        try saveAll(db, userID: userID, [(key, Record(fingerprint: fingerprint, response: response))], now: now)
    }

    /// Saves `records` of `userID`, the last one of a key standing: a statement for every
    /// 64 records, each a power of two of rows (the statements kept for the connection's
    /// life, at most seven), one row per key.
    static func saveAll(
        _ db: any SQLSession,
        userID: String,
        _ records: [(key: String, record: Record)],
        now: Date
    ) throws {
        var last: [String: Int] = [:]
        for (index, entry) in records.enumerated() { last[entry.key] = index }
        let rows = records.indices.filter { last[records[$0].key] == $0 }.map { records[$0] }
        let createdAt = Timestamp.string(now)
        var start = 0
        while start < rows.count {
            let remaining = rows.count - start
            let width = min(64, 1 << (Int.bitWidth - 1 - remaining.leadingZeroBitCount))
            var arguments = SQLArguments()
            for (key, record) in rows[start..<start + width] {
                let response = record.response
                let headers = String(
                    decoding: JSON.object(response.headers.mapValues(JSON.string)).encoded(),
                    as: UTF8.self
                )
                arguments += [
                    userID, key, record.fingerprint, response.status.code, headers, response.body, createdAt,
                ]
            }
            try db.execute(sql: saveStatements[width.trailingZeroBitCount], arguments: arguments)
            start += width
        }
    }

    /// The upserts of 1, 2, 4 ... 64 records.
    private static let saveStatements = (0...6).map { power in
        """
        INSERT INTO idempotency_keys (user_id, key, fingerprint, status, headers, body, created_at)
        VALUES \(Array(repeating: "(?, ?, ?, ?, ?, ?, ?)", count: 1 << power).joined(separator: ", "))
        ON CONFLICT (user_id, key) DO UPDATE SET
            fingerprint = excluded.fingerprint, status = excluded.status, headers = excluded.headers,
            body = excluded.body, created_at = excluded.created_at
        """
    }

    /// The decoder of a record's headers, shared by every record.
    private static let headersDecoder = JSONDecoder()

    /// What makes two requests "the same": method, path, query, body and, where the route
    /// acts as a member (`actsAsMember`), the member. A JSON body is compared in canonical
    /// form, so key order and whitespace do not matter.
    ///
    /// `X-Acting-As-Member` counts only where it changes what the request does: a client
    /// sends it with every request of a session that acts as a member, so a write made
    /// before the person began acting as someone goes again with it, and is the same write.
    static func fingerprint(_ request: APIRequest, actsAsMember: Bool) -> String {
        let query = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        let acting = actsAsMember ? request.header("X-Acting-As-Member") ?? "" : ""
        // A sub-request's body is already its parsed JSON encoded (`Subrequest`).
        let body = request.json != nil ? request.body : request.decodedBody.map { $0.encoded() } ?? request.body
        return SHA256Hasher.hex(
            "\(request.method.rawValue) \(request.path)?\(query)\n\(acting)\n\(SHA256Hasher.hex(body))"
        )
    }
}
