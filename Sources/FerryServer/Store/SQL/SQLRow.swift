/// One row of a query's result, read by column name.
///
/// ```swift
/// let expires: Double = row["expires_at"]
/// let name: String? = row["display_name"]
/// ```
struct SQLRow: Sendable {
    /// The column names, in the query's order.
    let columns: [String]
    /// The values, one per column.
    let values: [SQLValue]

    /// The value of `column`, nil when it is null, absent or of another kind.
    subscript<T: SQLValueConvertible>(_ column: String) -> T? {
        value(column).flatMap(T.init(sqlValue:))
    }

    /// The value of `column`, which the query guarantees: a null or a value of another kind
    /// is a programming error, as with GRDB's rows.
    subscript<T: SQLValueConvertible>(_ column: String) -> T {
        guard let value = value(column), let converted = T.init(sqlValue: value) else {
            preconditionFailure("Column '\(column)' does not hold a \(T.self) (columns: \(columns)).")
        }
        return converted
    }

    /// The first column's value, for single-value queries.
    var first: SQLValue? { values.first }

    private func value(_ column: String) -> SQLValue? {
        columns.firstIndex(of: column).map { values[$0] }
    }
}
