import GRDB

extension Database {
    /// Runs `body` in a savepoint of the transaction already open: what it changed is
    /// undone when it throws, and the error goes on.
    ///
    /// The statements are prepared once per connection: GRDB's `inSavepoint` parses them on
    /// every call, which cost an acknowledgement a tenth of its time (docs/performance.md).
    func withSavepoint<T>(_ body: () throws -> T) throws -> T {
        try cachedStatement(sql: "SAVEPOINT ferry").execute()
        do {
            let value = try body()
            try cachedStatement(sql: "RELEASE SAVEPOINT ferry").execute()
            return value
        } catch {
            try? cachedStatement(sql: "ROLLBACK TO SAVEPOINT ferry").execute()
            try? cachedStatement(sql: "RELEASE SAVEPOINT ferry").execute()
            throw error
        }
    }
}
