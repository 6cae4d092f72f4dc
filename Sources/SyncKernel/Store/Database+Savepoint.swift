import GRDB

extension Database {
    /// Runs `body` in a savepoint of the transaction already open: what it changed is
    /// undone when it throws, and the error goes on.
    ///
    /// When SQLite rolled the whole transaction back meanwhile (it may, on a full disk or an
    /// I/O error), the error is `TransactionRolledBack`: nothing of the transaction is left,
    /// and code that catches a savepoint's error to go on must let this one through (what
    /// ran after it would commit by itself, outside any transaction).
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
            guard isInsideTransaction else { throw TransactionRolledBack(cause: error) }
            try? cachedStatement(sql: "ROLLBACK TO SAVEPOINT ferry").execute()
            try? cachedStatement(sql: "RELEASE SAVEPOINT ferry").execute()
            throw error
        }
    }
}

extension Database {
    /// Runs `body` in a savepoint and returns how it went, so that the transaction goes on:
    /// a failure is undone and returned. Throws only `TransactionRolledBack`, when there is
    /// no transaction left to go on with.
    func attemptInSavepoint<T>(_ body: () throws -> T) throws -> Result<T, any Error> {
        do {
            return .success(try withSavepoint(body))
        } catch let rolledBack as TransactionRolledBack {
            throw rolledBack
        } catch {
            return .failure(error)
        }
    }
}

/// SQLite rolled a whole transaction back on `cause` (a full disk, an I/O error).
struct TransactionRolledBack: Error {
    let cause: any Error
}
