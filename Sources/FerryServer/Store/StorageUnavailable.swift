/// The database cannot be used now: it went away, another writer held it past the busy
/// timeout, or it is out of room. The transaction rolled back, so a retry is safe; the
/// server answers `503 database_unavailable` with `Retry-After`.
///
/// Its ``reason`` names the failure (an SQLSTATE, "connection refused"), never a URL, a
/// user or a password, so it can be logged as it is.
struct StorageUnavailable: Error, CustomStringConvertible {
    /// What failed, for the log.
    var reason: String

    var description: String { "The database is unavailable: \(reason)." }
}

/// A statement that the database refused for a reason of its own (a constraint, a type):
/// a bug to fix, not a busy database. Its description is the SQLSTATE and the server's
/// message, which name tables and columns, never connection details.
struct StorageFailure: Error, CustomStringConvertible {
    var description: String
}
