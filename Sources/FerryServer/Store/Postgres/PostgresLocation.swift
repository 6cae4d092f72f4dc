import Foundation

/// Where a PostgreSQL database is, read from a `postgres://` URL:
/// `postgres://user[:password]@host[:port]/database[?schema=name]`.
///
/// `schema` keeps the server's tables in a schema of their own (created when missing), so
/// several servers or test runs can share one database. The password is kept for
/// connecting only: ``description`` and every error leave it out.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    var password: String?
    public var database: String
    /// The schema of the server's tables; `public` when the URL names none.
    public var schema: String

    /// Reads `url`; throws a ``PostgresLocationError`` that quotes no password.
    public init(url: String) throws(PostgresLocationError) {
        guard let components = URLComponents(string: url),
            components.scheme == "postgres" || components.scheme == "postgresql"
        else { throw PostgresLocationError("is not a postgres:// URL") }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresLocationError("names no user: use postgres://USER@HOST:PORT/DATABASE")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresLocationError("names no database: use postgres://USER@HOST:PORT/DATABASE")
        }
        let schema = components.queryItems?.first(where: { $0.name == "schema" })?.value ?? "public"
        guard Self.isPlainName(schema) else {
            throw PostgresLocationError("has schema '\(schema.prefix(64))': use letters, digits and '_'")
        }
        let unknown = (components.queryItems ?? []).map(\.name).filter { $0 != "schema" }
        guard unknown.isEmpty else {
            throw PostgresLocationError("has unknown parameters \(unknown): only 'schema' is known")
        }
        self.host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        self.port = components.port ?? 5432
        self.user = user
        self.password = components.password
        self.database = database
        self.schema = schema
    }

    /// The URL without its password.
    public var description: String {
        let query = schema == "public" ? "" : "?schema=\(schema)"
        return "postgres://\(user)@\(host):\(port)/\(database)\(query)"
    }

    public var debugDescription: String { description }

    /// This location with another schema (a test's own tables in a shared database).
    public func inSchema(_ schema: String) -> PostgresLocation {
        var copy = self
        copy.schema = schema
        return copy
    }

    /// Whether `name` is safe to write into SQL as an identifier.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 63
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
            && !("0"..."9").contains(name.unicodeScalars.first!)
    }
}

/// A `postgres://` URL that cannot be used; its message never quotes the URL (it may
/// carry a password).
public struct PostgresLocationError: Error, CustomStringConvertible {
    public var message: String

    init(_ problem: String) {
        message = "The database URL \(problem)."
    }

    public var description: String { message }
}
