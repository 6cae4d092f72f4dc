import Foundation
import Logging
import NIOCore
import PostgresNIO

/// An ``SQLSession`` over one PostgreSQL connection, for a closure that runs on one of the
/// engine's own threads (never the cooperative pool, never an event loop): each statement
/// blocks that thread until its result is in.
struct PostgresSession: SQLSession {
    let connection: PostgresConnection
    let statements: PostgresStatements
    let logger: Logger

    var dialect: SQLDialect { .postgres }

    func execute(sql: String, arguments: SQLArguments) throws -> Int {
        try run(sql, arguments).metadata.rows ?? 0
    }

    func fetchAll(sql: String, arguments: SQLArguments) throws -> [SQLRow] {
        try run(sql, arguments).rows.map(SQLRow.init)
    }

    func fetchOne(sql: String, arguments: SQLArguments) throws -> SQLRow? {
        try run(sql, arguments).rows.first.map(SQLRow.init)
    }

    private func run(_ sql: String, _ arguments: SQLArguments) throws -> PostgresQueryResult {
        let query = PostgresQuery(unsafeSQL: statements.postgres(sql), binds: arguments.postgresBindings)
        let result: EventLoopFuture<PostgresQueryResult> = connection.query(query, logger: logger)
        return try result.wait()
    }
}

extension SQLArguments {
    /// The arguments as postgres-nio binds them: BIGINT, DOUBLE PRECISION, TEXT, BYTEA.
    var postgresBindings: PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let integer): bindings.append(Int(integer))
            case .real(let real): bindings.append(real)
            case .text(let text): bindings.append(text)
            case .blob(let data): bindings.append(ByteBuffer(bytes: data))
            }
        }
        return bindings
    }
}

extension SQLRow {
    init(_ row: PostgresRow) {
        var columns: [String] = []
        var values: [SQLValue] = []
        for cell in row {
            columns.append(cell.columnName)
            values.append(SQLValue(cell))
        }
        self.init(columns: columns, values: values)
    }
}

extension SQLValue {
    /// A cell as the storage class it reads as: any integer or BOOLEAN as an integer, REAL
    /// and DOUBLE PRECISION as a real, BYTEA as a blob, anything else as text.
    init(_ cell: PostgresCell) {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .int2, .int4, .int8:
            self = (try? cell.decode(Int.self)).map { .integer(Int64($0)) } ?? .null
        case .float4, .float8:
            self = (try? cell.decode(Double.self)).map(SQLValue.real) ?? .null
        case .bool:
            self = (try? cell.decode(Bool.self)).map { .integer($0 ? 1 : 0) } ?? .null
        case .bytea:
            self = (try? cell.decode(ByteBuffer.self)).map { .blob(Data($0.readableBytesView)) } ?? .null
        default:
            self = (try? cell.decode(String.self)).map(SQLValue.text) ?? .null
        }
    }
}
