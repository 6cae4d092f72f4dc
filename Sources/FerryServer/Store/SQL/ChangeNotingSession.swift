/// A write's session that keeps the highest change number its statements issued
/// (``Entities`` notes each one as its statement returns it), so that the write's answer
/// names its change without asking the database again: on PostgreSQL that is one round
/// trip less per write.
final class ChangeNotingSession: SQLSession {
    private let base: any SQLSession
    /// The highest change number noted, nil while the write changed no entity.
    private(set) var lastChange: Int?

    init(_ base: any SQLSession) {
        self.base = base
    }

    var dialect: SQLDialect { base.dialect }

    func execute(sql: String, arguments: SQLArguments) throws -> Int {
        try base.execute(sql: sql, arguments: arguments)
    }

    func fetchAll(sql: String, arguments: SQLArguments) throws -> [SQLRow] {
        try base.fetchAll(sql: sql, arguments: arguments)
    }

    func fetchOne(sql: String, arguments: SQLArguments) throws -> SQLRow? {
        try base.fetchOne(sql: sql, arguments: arguments)
    }

    func noteChange(_ sequence: Int) {
        lastChange = max(lastChange ?? sequence, sequence)
    }
}
