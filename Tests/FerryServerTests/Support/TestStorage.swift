import FerryServer
import Foundation
import Testing

/// Which storage engine a test server runs on.
///
/// The whole server suite runs on SQLite by default, and on PostgreSQL when
/// `FERRY_TEST_POSTGRES_URL` names a database (`bash .ci/postgres swift test ...` starts a
/// throwaway one and sets it): each server then gets a schema of its own in it. Tests
/// about one engine's own behaviour name it.
enum TestStorage: Sendable {
    case sqlite
    case postgres(PostgresLocation)

    /// PostgreSQL when `FERRY_TEST_POSTGRES_URL` is set, else SQLite.
    static var `default`: TestStorage { postgresServer.map(TestStorage.postgres) ?? .sqlite }

    /// The database of `FERRY_TEST_POSTGRES_URL`, nil when it is not set.
    static let postgresServer: PostgresLocation? = {
        guard let url = ProcessInfo.processInfo.environment["FERRY_TEST_POSTGRES_URL"], !url.isEmpty else { return nil }
        do {
            return try PostgresLocation(url: url)
        } catch {
            fatalError("FERRY_TEST_POSTGRES_URL: \(error)")
        }
    }()

    /// Why the PostgreSQL-only tests are skipped on a machine without a test database.
    static let postgresSkipped: Comment =
        "PostgreSQL not tested: FERRY_TEST_POSTGRES_URL is not set (bash .ci/postgres swift test ... sets it)"

    /// A fresh schema name, or the one that stands for `dataDirectory` (a test that
    /// restarts a server on the same data reopens the same schema).
    static func schema(for dataDirectory: String?) -> String {
        let name = (dataDirectory.map { URL(fileURLWithPath: $0).lastPathComponent } ?? UUID().uuidString).lowercased()
        return "t_" + String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }.prefix(60))
    }
}
