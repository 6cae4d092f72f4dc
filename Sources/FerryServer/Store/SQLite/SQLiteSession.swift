import Foundation
import GRDB

/// An ``SQLSession`` over a GRDB connection. Every statement is a cached one: the server's
/// SQL is a small fixed set, and preparing it once per connection keeps hot paths fast.
struct SQLiteSession: SQLSession {
    let db: Database
    /// Whether this is a read's session, which refuses any statement that could write.
    let readOnly: Bool

    var dialect: SQLDialect { .sqlite }

    func execute(sql: String, arguments: SQLArguments) throws -> Int {
        try statement(sql).execute(arguments: arguments.statementArguments)
        return db.changesCount
    }

    func fetchAll(sql: String, arguments: SQLArguments) throws -> [SQLRow] {
        try Row.fetchAll(statement(sql), arguments: arguments.statementArguments).map(SQLRow.init)
    }

    func fetchOne(sql: String, arguments: SQLArguments) throws -> SQLRow? {
        try Row.fetchOne(statement(sql), arguments: arguments.statementArguments).map(SQLRow.init)
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

extension SQLArguments {
    /// The arguments as GRDB binds them. (GRDB's initializer for a sequence of one concrete
    /// type builds a generic key path on every call; the one for optionals does not.)
    var statementArguments: StatementArguments {
        StatementArguments(values.map { $0.databaseValue as (any DatabaseValueConvertible)? })
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
