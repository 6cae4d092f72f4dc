import FerryHashing
import Foundation

/// Sessions and their tokens: issue, rotate on refresh, revoke, resolve a bearer token.
enum Sessions {
    /// Why a token was refused; sent as `details.reason` of a 401.
    enum Refusal: String {
        case unknown, expired, revoked, reused
    }

    /// Opens a session for `userID` and returns its first token pair.
    static func open(
        _ db: any SQLSession,
        userID: String,
        configuration: FerryServerConfiguration,
        now: Date
    ) throws -> (access: String, refresh: String) {
        let sessionID = TokenGenerator.id(prefix: "s_")
        try db.execute(
            sql: "INSERT INTO sessions (id, user_id, created_at) VALUES (?, ?, ?)",
            arguments: [sessionID, userID, Timestamp.string(now)]
        )
        return try issue(db, sessionID: sessionID, configuration: configuration, now: now)
    }

    /// Issues a new access and refresh token in a session.
    static func issue(
        _ db: any SQLSession,
        sessionID: String,
        configuration: FerryServerConfiguration,
        now: Date
    ) throws -> (access: String, refresh: String) {
        let access = TokenGenerator.make(prefix: "fat_")
        let refresh = TokenGenerator.make(prefix: "frt_")
        let base = now.timeIntervalSince1970
        try db.execute(
            sql:
                "INSERT INTO tokens (token_hash, session_id, kind, expires_at) VALUES (?, ?, 'access', ?), (?, ?, 'refresh', ?)",
            arguments: [
                SHA256Hasher.hex(access), sessionID, base + configuration.accessTokenLifetime,
                SHA256Hasher.hex(refresh), sessionID, base + configuration.refreshTokenLifetime,
            ]
        )
        return (access, refresh)
    }

    /// The user behind a bearer access token, or why it is refused.
    static func authenticate(
        _ db: any SQLSession,
        accessToken: String,
        now: Date
    ) throws -> Result<AuthenticatedUser, APIError> {
        guard
            let row = try db.fetchOne(
                sql: """
                    SELECT t.expires_at, t.used, s.revoked, s.id AS session_id, u.id, u.username, u.display_name
                    FROM tokens t JOIN sessions s ON s.id = t.session_id JOIN users u ON u.id = s.user_id
                    WHERE t.token_hash = ? AND t.kind = 'access'
                    """
                ,
                arguments: [SHA256Hasher.hex(accessToken)]
            )
        else { return .failure(refused(.unknown)) }
        if row["revoked"] as Bool || row["used"] as Bool { return .failure(refused(.revoked)) }
        if (row["expires_at"] as Double) <= now.timeIntervalSince1970 { return .failure(refused(.expired)) }
        return .success(
            AuthenticatedUser(
                id: row["id"],
                username: row["username"],
                displayName: row["display_name"],
                sessionID: row["session_id"]
            )
        )
    }

    /// Rotates a refresh token: the old pair is revoked and a new pair issued in the same session.
    ///
    /// A refresh token presented again revokes its whole session (theft detection), unless it
    /// is the last one rotated and the pair that replaced it was never refreshed: the answer
    /// to its refresh was lost, and the client tries again with the token it still has; that
    /// pair is dropped and a new one issued. Had a thief used it, the first of the two to
    /// refresh next presents a token already used and not the last rotated: the session
    /// ends then.
    /// Returns a failure (instead of throwing) so that a theft revocation commits.
    static func refresh(
        _ db: any SQLSession,
        refreshToken: String,
        configuration: FerryServerConfiguration,
        now: Date
    ) throws -> Result<(userID: String, access: String, refresh: String), APIError> {
        guard
            let row = try db.fetchOne(
                sql: """
                    SELECT t.expires_at, t.used, s.revoked, s.id AS session_id, s.user_id
                    FROM tokens t JOIN sessions s ON s.id = t.session_id
                    WHERE t.token_hash = ? AND t.kind = 'refresh'
                    """,
                arguments: [SHA256Hasher.hex(refreshToken)]
            )
        else { return .failure(refused(.unknown)) }
        let sessionID: String = row["session_id"]
        if row["revoked"] as Bool { return .failure(refused(.revoked)) }
        let retry = row["used"] as Bool
        if retry, try !isLastRotated(db, sessionID: sessionID, expiringAt: row["expires_at"]) {
            try revoke(db, sessionID: sessionID)
            return .failure(refused(.reused))
        }
        if (row["expires_at"] as Double) <= now.timeIntervalSince1970 { return .failure(refused(.expired)) }
        if retry {
            // The pair whose answer was lost goes, never used: the presented token stays the
            // last one rotated, for another retry if this answer is lost too.
            try db.execute(sql: "DELETE FROM tokens WHERE session_id = ? AND used = 0", arguments: [sessionID])
        } else {
            try db.execute(sql: "UPDATE tokens SET used = 1 WHERE session_id = ?", arguments: [sessionID])
        }
        let pair = try issue(db, sessionID: sessionID, configuration: configuration, now: now)
        return .success((row["user_id"], pair.access, pair.refresh))
    }

    /// Whether the refresh token expiring at `expiry` is the session's last rotated one.
    private static func isLastRotated(_ db: any SQLSession, sessionID: String, expiringAt expiry: Double) throws -> Bool {
        let last = try db.fetchOne(
            sql: "SELECT MAX(expires_at) AS last FROM tokens WHERE session_id = ? AND kind = 'refresh' AND used = 1",
            arguments: [sessionID]
        )
        return (last?["last"] as Double?) == expiry
    }

    /// Revokes a session and every token in it.
    static func revoke(_ db: any SQLSession, sessionID: String) throws {
        try db.execute(sql: "UPDATE sessions SET revoked = 1 WHERE id = ?", arguments: [sessionID])
    }

    static func refused(_ reason: Refusal) -> APIError {
        let message =
            switch reason {
            case .unknown: "The token is not valid."
            case .expired: "The token has expired; refresh it or log in again."
            case .revoked: "The token has been revoked; log in again."
            case .reused: "This refresh token was already used; the session is revoked, log in again."
            }
        return APIError(
            .unauthorized,
            "unauthorized",
            message,
            details: ["reason": .string(reason.rawValue)],
            headers: ["WWW-Authenticate": "Bearer"]
        )
    }
}
