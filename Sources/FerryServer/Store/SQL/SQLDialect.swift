/// What differs in the SQL of the two storage engines, for the few statements that cannot be
/// written once for both.
enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// A condition that the top-level `key` of the JSON text column `column` equals the
    /// statement's next argument, a string or an integer (`key` is one of the server's own
    /// field names, never user input).
    ///
    /// ```swift
    /// try Entities.list(db, "rounds", scope: scope, filter: db.dialect.jsonEquals("data", key: "status"), arguments: ["voting"])
    /// ```
    func jsonEquals(_ column: String, key: String) -> String {
        switch self {
        case .sqlite: "json_extract(\(column), '$.\(key)') = ?"
        case .postgres: "(\(column)::jsonb -> '\(key)') = to_jsonb(?)"
        }
    }
}
