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
    /// The arguments are bound with GRDB's own bindings of each type, and the statement is
    /// stepped by GRDB (its checks, its transaction tracking, its errors); only GRDB's
    /// `StatementArguments` and `Row`, built on every statement, are left out.
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
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        guard arguments.values.count == Int(sqlite3_bind_parameter_count(handle)) else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: \(arguments.values.count)",
                sql: sql
            )
        }
        for (index, value) in zip(CInt(1)..., arguments.values) {
            let code = value.databaseValue.bind(to: handle, at: index)
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
        (0..<sqlite3_column_count(sqliteStatement)).map {
            SQLValue(DatabaseValue(sqliteStatement: sqliteStatement, index: $0))
        }
    }
}

extension SQLValue {
    /// The value as GRDB stores it.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let integer): integer.databaseValue
        case .real(let real): real.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let data): data.databaseValue
        }
    }

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let integer): self = .integer(integer)
        case .double(let real): self = .real(real)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }
}

extension SQLRow {
    init(_ row: Row) {
        self.init(columns: Array(row.columnNames), values: row.databaseValues.map(SQLValue.init))
    }
}
