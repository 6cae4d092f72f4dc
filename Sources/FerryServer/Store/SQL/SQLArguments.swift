/// The values bound to a statement's placeholders, in order.
///
/// ```swift
/// try db.execute(sql: "UPDATE sessions SET revoked = 1 WHERE id = ?", arguments: [sessionID])
/// ```
struct SQLArguments: Sendable, ExpressibleByArrayLiteral {
    var values: [SQLValue]

    init(values: [SQLValue] = []) {
        self.values = values
    }

    /// One argument per element of `sequence`.
    init<S: Sequence>(_ sequence: S) where S.Element: SQLValueConvertible {
        values = sequence.map(\.sqlValue)
    }

    /// Arguments of any convertible types; nil binds NULL.
    init(arrayLiteral elements: (any SQLValueConvertible)?...) {
        values = elements.map { $0?.sqlValue ?? .null }
    }

    static func += (lhs: inout SQLArguments, rhs: SQLArguments) {
        lhs.values += rhs.values
    }
}
