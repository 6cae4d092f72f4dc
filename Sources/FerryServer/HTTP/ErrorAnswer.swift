import GRDB
import HTTPTypes
import Hummingbird

/// The answer to an error, in the error shape: an ``APIError`` as it is, a TMDB failure in
/// TMDB's shape, an unusable database (SQLite or PostgreSQL) as `503 database_unavailable`,
/// anything else `500`.
enum ErrorAnswer {
    static func response(
        for error: any Error,
        method: HTTPRequest.Method,
        path: String,
        environment: ServerEnvironment
    ) -> APIResponse {
        if let error = error as? APIError {
            return .error(error)
        }
        if let failure = error as? TMDBFailure {
            return .json(failure.body, status: .init(code: failure.status))
        }
        if let error = error as? HTTPError, error.status == .notFound {
            return .error(APIError.notFound("not_found", "No endpoint at \(path.prefix(200))."))
        }
        if let failure = error as? DatabaseError, isUnavailable(failure) {
            environment.logger.warning("The database is unavailable: \(failure.resultCode)")
            return .error(databaseUnavailable)
        }
        if let failure = error as? StorageUnavailable {
            environment.logger.warning("\(failure)")
            return .error(databaseUnavailable)
        }
        environment.logger.error(
            "Unexpected error",
            metadata: ["method": "\(method.rawValue)", "path": "\(path)", "error": "\(error)"]
        )
        return .error(APIError(.internalServerError, "internal_error", "The server failed to handle this request."))
    }

    /// The answer when the database cannot be used now: nothing was changed, retry shortly.
    static let databaseUnavailable = APIError(
        .serviceUnavailable,
        "database_unavailable",
        "The server's database is busy or unavailable; nothing was changed. Try again shortly.",
        headers: ["Retry-After": "1"]
    )

    /// Whether `error` says the database cannot be used now (held by another process, out
    /// of room, unreadable) rather than that the request was wrong: the transaction rolled
    /// back, so a retry is safe.
    static func isUnavailable(_ error: DatabaseError) -> Bool {
        let unavailable: [ResultCode] = [
            .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_NOMEM, .SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_FULL,
            .SQLITE_CANTOPEN, .SQLITE_PROTOCOL,
        ]
        return unavailable.contains(error.resultCode.primaryResultCode)
    }
}
