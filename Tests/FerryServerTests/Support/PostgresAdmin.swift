import FerryServer
import Logging
import NIOPosix
import PostgresNIO

/// A connection of a test's own to the test database (`FERRY_TEST_POSTGRES_URL`), for what
/// another process would do to it: hold a table, turn a role away, end connections.
struct PostgresAdmin {
    let connection: PostgresConnection

    static func connect(_ location: PostgresLocation) async throws -> PostgresAdmin {
        let configuration = PostgresConnection.Configuration(
            host: location.host,
            port: location.port,
            username: location.user,
            password: nil,
            database: location.database,
            tls: .disable
        )
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(),
            configuration: configuration,
            id: 1,
            logger: Logger(label: "ferry.server.tests.postgres")
        )
        return PostgresAdmin(connection: connection)
    }

    /// Runs `sql` (no arguments: tests write their own names into it) and returns the
    /// first column of each row as text.
    @discardableResult
    func run(_ sql: String) async throws -> [String?] {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: connection.logger)
        var values: [String?] = []
        for try await row in rows {
            let cell = row.makeRandomAccess()[0]
            values.append(
                cell.bytes == nil
                    ? nil : (try? cell.decode(String.self)) ?? (try? cell.decode(Int.self)).map(String.init)
            )
        }
        return values
    }

    func close() async {
        try? await connection.close()
    }
}
