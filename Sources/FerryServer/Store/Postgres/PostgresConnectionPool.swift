import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// A few PostgreSQL connections, opened when needed and kept for reuse.
///
/// A connection that the server closed (or that an access gave up on) is dropped, not
/// reused; the next lease opens a fresh one. Failing to connect is a
/// ``StorageUnavailable`` at once, never a wait: the request answers 503.
actor PostgresConnectionPool {
    private let configuration: PostgresConnection.Configuration
    /// The database's URL without its password, for errors.
    private let name: String
    private let maximum: Int
    private let logger: Logger
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var nextID = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var closed = false

    init(configuration: PostgresConnection.Configuration, name: String, maximum: Int, logger: Logger) {
        self.configuration = configuration
        self.name = name
        self.maximum = maximum
        self.logger = logger
    }

    /// Runs `body` with a connection of its own; the connection goes back to the pool
    /// afterwards unless it was closed meanwhile.
    func withConnection<T: Sendable>(
        _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let connection = try await lease()
        do {
            let result = try await body(connection)
            await giveBack(connection)
            return result
        } catch {
            await giveBack(connection)
            throw error
        }
    }

    /// Closes every idle connection; leases fail from now on.
    func close() async {
        closed = true
        let connections = idle
        idle = []
        open -= connections.count
        for connection in connections { try? await connection.close() }
        for waiter in waiting { waiter.resume() }
        waiting = []
    }

    /// A connection for the caller alone, until it calls ``giveBack(_:)``.
    func lease() async throws -> PostgresConnection {
        while true {
            if closed { throw StorageUnavailable(reason: "the server is stopping") }
            if let connection = idle.popLast() {
                if !connection.isClosed { return connection }
                open -= 1
                continue
            }
            if open < maximum {
                open += 1
                nextID += 1
                do {
                    return try await PostgresConnection.connect(
                        on: MultiThreadedEventLoopGroup.singleton.next(),
                        configuration: configuration,
                        id: nextID,
                        logger: logger
                    )
                } catch {
                    open -= 1
                    wakeOne()
                    throw StorageUnavailable(
                        reason: "cannot connect to \(name) (\(PostgresFailure.summary(of: error)))"
                    )
                }
            }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    /// Returns a leased connection; a closed one is dropped.
    func giveBack(_ connection: PostgresConnection) async {
        if connection.isClosed || closed {
            open -= 1
            if !connection.isClosed { try? await connection.close() }
        } else {
            idle.append(connection)
        }
        wakeOne()
    }

    private func wakeOne() {
        if !waiting.isEmpty { waiting.removeFirst().resume() }
    }
}
