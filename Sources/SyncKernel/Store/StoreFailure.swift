import GRDB

/// Turns SQLite failures into errors a person can act on.
enum StoreFailure {
    /// Whether `error` is this device's store failing to write (a full or failing disk),
    /// as thrown or as `map` made it: it says nothing of the operation that met it.
    static func isFull(_ error: any Error) -> Bool {
        if let error = error as? FerryError {
            return error.code == .storageUnavailable && error.underlying.map(isFull) == true
        }
        if let rolledBack = error as? TransactionRolledBack {
            return (rolledBack.cause as? DatabaseError).map(isFull) ?? true
        }
        guard let database = error as? DatabaseError else { return false }
        return [.SQLITE_FULL, .SQLITE_IOERR].contains(database.resultCode)
    }

    static func map(_ error: any Error, doing action: String) -> any Error {
        if error is FerryError || error is CancellationError { return error }
        if error is StoreClosed {
            return FerryError(
                .storage,
                "could not \(action): the store was closed (FerryStore.close()); open it again to go on",
                underlying: error
            )
        }
        if let rolledBack = error as? TransactionRolledBack {
            guard rolledBack.cause is DatabaseError else {
                return FerryError(
                    .storageUnavailable,
                    "could not \(action): SQLite rolled the transaction back (the disk is full or failing); nothing was lost, free some space and run the command again",
                    underlying: error
                )
            }
            return map(rolledBack.cause, doing: action)
        }
        // Errors thrown by plugin code inside a transaction pass through untouched.
        guard let database = error as? DatabaseError else { return error }
        if isFull(database) {
            return FerryError(
                .storageUnavailable,
                "could not \(action): the disk is full or failing (SQLite \(database.resultCode.rawValue)); nothing was lost, free some space and run the command again",
                underlying: error
            )
        }
        switch database.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return FerryError(
                .storage,
                "could not \(action): another process held the store for too long; try again",
                underlying: error
            )
        default:
            return FerryError(
                .storage,
                "could not \(action): \(database.message ?? "\(database.resultCode)")",
                underlying: error
            )
        }
    }
}
