import Foundation

/// Where a PostgreSQL database is and how to reach it, read from a `postgres://` URL:
/// `postgres://user[:password]@host[:port]/database[?schema=name&sslmode=mode&sslrootcert=file&pool_size=n]`.
///
/// `schema` keeps the server's tables in a schema of their own (created when missing), so
/// several servers or test runs can share one database. `sslmode` and `sslrootcert` mean
/// what they mean to libpq (``PostgresTLSMode``); `pool_size` is how many connections one
/// server opens at most. The password is kept for connecting only: ``description`` and
/// every error leave it out.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    var password: String?
    public var database: String
    /// The schema of the server's tables; `public` when the URL names none.
    public var schema: String
    /// Whether and how the connection is encrypted (`sslmode`; `prefer` when left out, as libpq).
    public var tls: PostgresTLSMode
    /// A PEM file of the certificates that may sign the database's (`sslrootcert`); the
    /// system's trusted roots when nil.
    public var rootCertificates: String?
    /// How many connections one server opens at most (`pool_size`, 1-100; 8 when left out).
    public var poolSize: Int

    /// The parameters a URL may carry.
    static let parameters = ["schema", "sslmode", "sslrootcert", "pool_size"]

    /// Reads `url`; throws a ``PostgresLocationError`` that quotes no password.
    public init(url: String) throws(PostgresLocationError) {
        guard let components = URLComponents(string: url),
            components.scheme == "postgres" || components.scheme == "postgresql"
        else { throw PostgresLocationError("is not a postgres:// URL: use postgres://USER[:PASSWORD]@HOST:PORT/DATABASE") }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresLocationError("names no user: use postgres://USER@HOST:PORT/DATABASE")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresLocationError("names no database: use postgres://USER@HOST:PORT/DATABASE")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { _, last in last }
        let schema = query["schema"] ?? "public"
        guard Self.isPlainName(schema) else {
            throw PostgresLocationError("has schema '\(schema.prefix(64))': use letters, digits and '_'")
        }
        let unknown = (components.queryItems ?? []).map(\.name).filter { !Self.parameters.contains($0) }
        guard unknown.isEmpty else {
            throw PostgresLocationError("has unknown parameters \(unknown): the known ones are \(Self.parameters)")
        }
        let tls = try query["sslmode"].map(PostgresTLSMode.init(parameter:)) ?? .prefer
        let poolSize = try query["pool_size"].map(Self.poolSize(_:)) ?? 8
        self.host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        self.port = components.port ?? 5432
        self.user = user
        self.password = components.password
        self.database = database
        self.schema = schema
        self.tls = tls
        self.rootCertificates = query["sslrootcert"].flatMap { $0.isEmpty ? nil : $0 }
        self.poolSize = poolSize
    }

    private static func poolSize(_ text: String) throws(PostgresLocationError) -> Int {
        guard let size = Int(text), (1...100).contains(size) else {
            throw PostgresLocationError("has pool_size '\(text.prefix(16))': use a number of connections from 1 to 100")
        }
        return size
    }

    /// The URL without its password.
    public var description: String {
        var query: [String] = []
        if schema != "public" { query.append("schema=\(schema)") }
        if tls != .prefer { query.append("sslmode=\(tls.rawValue)") }
        if let rootCertificates { query.append("sslrootcert=\(rootCertificates)") }
        if poolSize != 8 { query.append("pool_size=\(poolSize)") }
        let suffix = query.isEmpty ? "" : "?" + query.joined(separator: "&")
        return "postgres://\(user)@\(host):\(port)/\(database)\(suffix)"
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
