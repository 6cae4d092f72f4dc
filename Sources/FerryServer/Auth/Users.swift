import Foundation
import HummingbirdBcrypt

/// Account storage: users with bcrypt password hashes.
enum Users {
    /// Creates a user; 409 `username_taken` when the username exists.
    static func create(
        _ db: any SQLSession,
        id: String? = nil,
        username: String,
        password: String,
        displayName: String,
        cost: UInt8,
        now: Date
    ) throws -> JSON {
        if try db.fetchOne(
            sql: "SELECT 1 FROM users WHERE username = ?",
            arguments: [username]
        ) != nil {
            throw APIError(.conflict, "username_taken", "The username '\(username)' is taken.")
        }
        let id = id ?? TokenGenerator.id(prefix: "u_")
        let hash = Bcrypt.hash(password, cost: max(4, min(31, cost)))
        try db.execute(
            sql: "INSERT INTO users (id, username, display_name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [id, username, displayName, hash, Timestamp.string(now)]
        )
        return ["id": .string(id), "username": .string(username), "display_name": .string(displayName)]
    }

    /// The user with `username` and its password hash.
    static func find(_ db: any SQLSession, username: String) throws -> (user: JSON, hash: String)? {
        try db.fetchOne(
            sql: "SELECT id, username, display_name, password_hash FROM users WHERE username = ?",
            arguments: [username]
        ).map { row in
            (
                [
                    "id": .string(row["id"]), "username": .string(row["username"]),
                    "display_name": .string(row["display_name"]),
                ],
                row["password_hash"]
            )
        }
    }

    /// The public fields of a user by id.
    static func find(_ db: any SQLSession, id: String) throws -> JSON? {
        try db.fetchOne(
            sql: "SELECT id, username, display_name FROM users WHERE id = ?",
            arguments: [id]
        ).map {
            row in
            [
                "id": .string(row["id"]), "username": .string(row["username"]),
                "display_name": .string(row["display_name"]),
            ]
        }
    }
}
