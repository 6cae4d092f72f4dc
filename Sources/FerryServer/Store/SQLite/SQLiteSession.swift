import Foundation
import GRDB
import GRDBSQLite

/// An ``SQLSession`` over a GRDB connection. Every statement is a cached one: the server's
/// SQL is a small fixed set, and preparing it once per connection keeps hot paths fast.
struct SQLiteSession: SQLSession {
    let db: Database
    /// Whether this is a read's session, which refuses any statement that could write.
    let readOnly: Bool

    var dialect: SQLDialect { .sqlite }

    func execute(sql: String, arguments: SQLArguments) throws -> Int {
        try run(sql, arguments) { _ in }
        return db.changesCount
    }

    func fetchAll(sql: String, arguments: SQLArguments) throws -> [SQLRow] {
        var rows: [SQLRow] = []
        try run(sql, arguments) { rows.append($0) }
        return rows
    }

    func fetchOne(sql: String, arguments: SQLArguments) throws -> SQLRow? {
        var first: SQLRow?
        try run(sql, arguments, rowLimit: 1) { first = $0 }
        return first
    }

    /// Runs `sql` on the connection's prepared statement, handing each of its rows (up to
    /// `rowLimit`) to `row`.
    ///
    /// The arguments are bound and the columns read with SQLite's own calls, and the
    /// statement is stepped by GRDB (its checks, its transaction tracking, its errors):
    /// GRDB's `StatementArguments` and `Row`, built for every statement, showed in every
    /// write. Text keeps its length (a NUL inside it too).
    private func run(
        _ sql: String,
        _ arguments: SQLArguments,
        rowLimit: Int = .max,
        row: (SQLRow) -> Void
    ) throws {
        let statement = try statement(sql)
        let handle = statement.sqliteStatement
        // Resets the statement, clears its bindings and marks them as set.
        statement.setUncheckedArguments(StatementArguments())
        defer {
            // GRDB lets go of a statement that failed: it lives until here all the same.
            withExtendedLifetime(statement) {
                sqlite3_reset(handle)
                sqlite3_clear_bindings(handle)
            }
        }
        guard arguments.values.count == Int(sqlite3_bind_parameter_count(handle)) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: \(arguments.values.count)",
                sql: sql
            )
        }
        for (index, value) in zip(CInt(1)..., arguments.values) {
            let code = value.bind(to: handle, at: index)
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
            }
        }
        let rows = StatementRows(statement)
        let columns = statement.columnNames
        var count = 0
        while count < rowLimit, let values = try rows.next() {
            row(SQLRow(columns: columns, values: values))
            count += 1
        }
    }

    /// The connection's prepared statement for `sql`. A read checks the statement itself
    /// rather than through `PRAGMA query_only` (GRDB's `read`): setting that pragma expires
    /// every prepared statement of the connection, and each was then prepared again.
    private func statement(_ sql: String) throws -> Statement {
        let statement = try db.cachedStatement(sql: sql)
        if readOnly && !statement.isReadonly {
            throw DatabaseError(resultCode: .SQLITE_READONLY, message: "a read may not write: \(sql)")
        }
        return statement
    }
}

/// The rows of a statement whose arguments are bound, each as its values, stepped by GRDB.
private final class StatementRows: DatabaseCursor {
    typealias Element = [SQLValue]
    let _statement: Statement
    var _isDone = false

    init(_ statement: Statement) {
        _statement = statement
    }

    func _element(sqliteStatement: SQLiteStatement) -> [SQLValue] {
        (0..<sqlite3_column_count(sqliteStatement)).map { SQLValue(sqliteStatement, column: $0) }
    }
}

/// SQLite's destructor value that makes it copy a bound text or blob.
private let copiedBySQLite = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension SQLValue {
    /// Binds the value to parameter `index` of `statement`; SQLite's result code.
    fileprivate func bind(to statement: SQLiteStatement, at index: CInt) -> CInt {
        switch self {
        case .null:
            return sqlite3_bind_null(statement, index)
        case .integer(let integer):
            return sqlite3_bind_int64(statement, index, integer)
        case .real(let real):
            return sqlite3_bind_double(statement, index, real)
        case .text(var text):
            // An empty buffer may have no address, and a null address would bind NULL.
            if text.isEmpty { return sqlite3_bind_text(statement, index, "", 0, copiedBySQLite) }
            return text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    sqlite3_bind_text(statement, index, characters.baseAddress, CInt(characters.count), copiedBySQLite)
                }
            }
        case .blob(let data):
            return data.withUnsafeBytes { bytes in
                bytes.isEmpty
                    ? sqlite3_bind_zeroblob(statement, index, 0)
                    : sqlite3_bind_blob(statement, index, bytes.baseAddress, CInt(bytes.count), copiedBySQLite)
            }
        }
    }

    /// Column `column` of the row `statement` is on.
    fileprivate init(_ statement: SQLiteStatement, column: CInt) {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            self = .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT:
            self = .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, column))
            let bytes = UnsafeRawPointer(sqlite3_column_text(statement, column))
            self = .text(
                bytes.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: count), as: UTF8.self) } ?? ""
            )
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            self = .blob(sqlite3_column_blob(statement, column).map { Data(bytes: $0, count: count) } ?? Data())
        default:
            self = .null
        }
    }
}
