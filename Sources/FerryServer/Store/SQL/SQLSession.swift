/// The database as a read, a write or a batch's transaction sees it: the subset of SQL access
/// that the server's routes use, the same on SQLite (GRDB) and PostgreSQL (postgres-nio).
///
/// Statements use `?` placeholders (or `?1`, `?2`... to repeat one) and SQL that both engines
/// understand (`INSERT ... ON CONFLICT ... DO UPDATE`, `COALESCE`, `CAST(? AS INTEGER)`);
/// ``dialect`` covers the rest. A session is only valid inside the closure it is passed to.
///
/// ```swift
/// try await database.write { db in
///     try db.execute(sql: "DELETE FROM login_attempts WHERE key = ?", arguments: [key])
/// }
/// ```
protocol SQLSession {
    /// Which SQL the engine speaks, for the statements that differ.
    var dialect: SQLDialect { get }

    /// Runs one statement and returns how many rows it changed.
    @discardableResult
    func execute(sql: String, arguments: SQLArguments) throws -> Int

    /// Runs one query and returns all its rows.
    func fetchAll(sql: String, arguments: SQLArguments) throws -> [SQLRow]

    /// Runs one query and returns its first row.
    func fetchOne(sql: String, arguments: SQLArguments) throws -> SQLRow?

    /// Notes the change number a statement of the session just issued (``Entities``), for
    /// a write's answer to name (``ChangeNotingSession``); other sessions ignore it.
    func noteChange(_ sequence: Int)
}

extension SQLSession {
    func noteChange(_ sequence: Int) {}

    @discardableResult
    func execute(sql: String) throws -> Int {
        try execute(sql: sql, arguments: [])
    }

    /// The first column of the first row as `T`, nil when there is no row or it is null.
    func fetchValue<T: SQLValueConvertible>(
        _ type: T.Type,
        sql: String,
        arguments: SQLArguments = []
    ) throws -> T? {
        try fetchOne(sql: sql, arguments: arguments)?.first.flatMap(T.init(sqlValue:))
    }
}
