import Foundation

/// Failed logins counted per username and per address in the database, so that the limit
/// holds across server instances: past it, logins answer `429 too_many_attempts` with
/// `Retry-After` until the window ends, the right password included.
enum LoginLimits {
    /// The keys a login attempt counts against.
    static func keys(username: String, peer: String?) -> [(key: String, limit: KeyPath<FerryServerConfiguration, Int>)]
    {
        var keys = [("user:" + username.lowercased(), \FerryServerConfiguration.loginFailuresPerAccount)]
        if let peer { keys.append(("addr:" + peer, \FerryServerConfiguration.loginFailuresPerAddress)) }
        return keys
    }

    /// Throws 429 when one of `username` and `peer` is past its limit.
    static func check(
        _ db: any SQLSession,
        username: String,
        peer: String?,
        configuration: FerryServerConfiguration,
        now: Date
    ) throws {
        for (key, limit) in keys(username: username, peer: peer) {
            guard
                let row = try db.fetchOne(
                    sql: "SELECT failures, window_start FROM login_attempts WHERE key = ?",
                    arguments: [key]
                )
            else { continue }
            let ends = (row["window_start"] as Double) + configuration.loginWindow
            let failures: Int = row["failures"]
            if failures >= configuration[keyPath: limit], now.timeIntervalSince1970 < ends {
                let wait = Int((ends - now.timeIntervalSince1970).rounded(.up))
                throw APIError(
                    .tooManyRequests,
                    "too_many_attempts",
                    "Too many failed logins; try again in \(wait) s.",
                    details: ["retry_after": .int(wait)],
                    headers: ["Retry-After": String(wait)]
                )
            }
        }
    }

    /// Counts a failed login against `username` and `peer`; a new window starts when the
    /// last one ended.
    static func recordFailure(
        _ db: any SQLSession,
        username: String,
        peer: String?,
        configuration: FerryServerConfiguration,
        now: Date
    ) throws {
        let now = now.timeIntervalSince1970
        for (key, _) in keys(username: username, peer: peer) {
            try db.execute(
                sql: """
                    INSERT INTO login_attempts (key, failures, window_start) VALUES (?1, 1, ?2)
                    ON CONFLICT (key) DO UPDATE SET
                        failures = CASE WHEN login_attempts.window_start + ?3 <= ?2 THEN 1
                            ELSE login_attempts.failures + 1 END,
                        window_start = CASE WHEN login_attempts.window_start + ?3 <= ?2 THEN ?2
                            ELSE login_attempts.window_start END
                    """,
                arguments: [key, now, configuration.loginWindow]
            )
        }
    }

    /// A successful login clears its username's count (the address keeps its own).
    static func recordSuccess(_ db: any SQLSession, username: String) throws {
        try db.execute(sql: "DELETE FROM login_attempts WHERE key = ?", arguments: ["user:" + username.lowercased()])
    }
}
