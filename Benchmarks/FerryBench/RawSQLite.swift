import Foundation
import GRDBSQLite

/// The baseline: libsqlite3 through its C API, prepared statements, no framework.
final class RawSQLite {
    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Opens `path` with the kernel's pragmas (WAL, `synchronous`, busy timeout).
    init(path: String, synchronous: String) throws {
        guard
            sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
                == SQLITE_OK
        else {
            throw BenchError("cannot open \(path)")
        }
        sqlite3_busy_timeout(db, 10_000)
        try exec("PRAGMA journal_mode = WAL")
        try exec("PRAGMA synchronous = \(synchronous)")
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(db)
    }

    static var version: String { String(cString: sqlite3_libversion()) }

    func exec(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(db, sql, nil, nil, &message) != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "?"
            sqlite3_free(message)
            throw BenchError("\(sql): \(text)")
        }
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else {
            throw BenchError("prepare \(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        statements[sql] = statement
        return statement
    }

    /// A bound value.
    enum Value {
        case text(String)
        case int(Int64)
        case double(Double)
        case blob(Data)
        case null
    }

    private func bind(_ statement: OpaquePointer, _ values: [Value]) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .text(let text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case .int(let int): sqlite3_bind_int64(statement, index, int)
            case .double(let double): sqlite3_bind_double(statement, index, double)
            case .blob(let data):
                data.withUnsafeBytes { bytes in
                    _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
                }
            case .null: sqlite3_bind_null(statement, index)
            }
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ values: [Value] = []) throws {
        let statement = try prepared(sql)
        bind(statement, values)
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    /// Steps a query, handing each row's statement to `row`; returns the row count.
    @discardableResult
    func query(_ sql: String, _ values: [Value] = [], row: (OpaquePointer) -> Void = { _ in }) throws -> Int {
        let statement = try prepared(sql)
        bind(statement, values)
        var count = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_ROW {
                row(statement)
                count += 1
            } else if code == SQLITE_DONE {
                break
            } else {
                sqlite3_reset(statement)
                throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
            }
        }
        sqlite3_reset(statement)
        return count
    }

    static func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
    }

    static func int(_ statement: OpaquePointer, _ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    func transaction(_ body: () throws -> Void) throws {
        try run("BEGIN IMMEDIATE")
        do {
            try body()
            try run("COMMIT")
        } catch {
            try? run("ROLLBACK")
            throw error
        }
    }
}

/// A benchmark setup failure.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
