import ArgumentParser
import FerryServer
import Foundation
import Logging
import SyncKernel
import SyncKernelCLI

/// `ferry serve`: runs the reference backend.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run FerryServer, the reference backend of docs/protocol.md.",
        discussion: Examples.discussion(
            "Stores everything in SQLite under --data (in memory without it), or in PostgreSQL with --database, where several servers can share one database. --seed-demo loads the demo user demo / demo-password and demo data. /admin (faults, statistics, users) and /metrics (Prometheus) are off unless --admin-token or --admin-loopback turns them on.",
            examples: [
                "ferry serve --seed-demo", "ferry serve --port 8080 --data server-data --seed-demo --admin-loopback",
                "ferry serve --database postgres://ferry@127.0.0.1:5432/ferry",
            ]
        )
    )

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address")) var host = "127.0.0.1"
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The port to listen on, 0-65535 (0 picks a free one).", valueName: "port"),
        transform: ServeCommand.port
    ) var port = 8080
    @Option(
        help: ArgumentHelp(
            "The folder for the server's database and files; in memory when left out.",
            valueName: "folder"
        ),
        completion: .directory
    ) var data: String?
    @Option(
        help: ArgumentHelp(
            "A PostgreSQL database to store everything in instead of SQLite: postgres://USER[:PASSWORD]@HOST:PORT/DATABASE[?schema=NAME&sslmode=MODE&sslrootcert=FILE&pool_size=N] (also $FERRY_DATABASE_URL, which keeps a password out of the process list). sslmode: disable, prefer (default), require, verify-ca, verify-full.",
            valueName: "url"
        )
    ) var database: String?
    @Flag(help: "Load demo data (idempotent).") var seedDemo = false
    @Flag(help: "Log at debug level.") var verbose = false
    @Option(
        name: .customLong("admin-token"),
        help: ArgumentHelp(
            "Turn /admin and /metrics on for callers with 'Authorization: Bearer <token>' (also $FERRY_ADMIN_TOKEN).",
            valueName: "token"
        )
    ) var adminToken: String?
    @Flag(help: "Turn /admin and /metrics on for callers on this machine (loopback), for demos and fault injection.")
    var adminLoopback = false

    @Option(
        help: ArgumentHelp(
            "How log lines on standard error are written: text, or json (one object per line, docs/json.md).",
            valueName: "format"
        )
    )
    var logFormat: LogFormat = .text

    func run() async throws {
        let level: Logger.Level = verbose ? .debug : .info
        let format = logFormat
        LoggingSystem.bootstrap { label in
            guard format == .text else { return format.handler(label: label, level: level) }
            // The server's request log keeps its timestamped lines at `info`.
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var configuration = FerryServerConfiguration(
            host: host,
            port: port,
            dataDirectory: data,
            seedDemo: seedDemo,
            logger: Logger(label: "ferry.server")
        )
        configuration.admin = adminAccess
        configuration.postgres = try postgres
        try await FerryServer.run(configuration)
    }

    /// A port from `text`: a number from 0 to 65535, where 0 asks for a free one. Anything
    /// else is refused (exit 64), never taken as "any port".
    static func port(_ text: String) throws -> Int {
        guard let port = Int(text), (0...65_535).contains(port) else {
            throw ValidationError("--port must be a number from 0 to 65535 (0 picks a free port), not \(text)")
        }
        return port
    }

    /// The PostgreSQL database of `--database` or `$FERRY_DATABASE_URL`, nil for SQLite;
    /// `--data` with it is refused, as it would be unused. Errors never repeat the URL (it
    /// may carry a password), which is why `--database` is read here and not by the parser.
    var postgres: PostgresLocation? {
        get throws {
            let given = database.map { ("--database", $0) }
                ?? ProcessEnvironment.value("FERRY_DATABASE_URL").flatMap { $0.isEmpty ? nil : ("$FERRY_DATABASE_URL", $0) }
            guard let (source, url) = given else { return nil }
            let location: PostgresLocation
            do {
                location = try PostgresLocation(url: url)
            } catch {
                throw ValidationError("\(source): \(error.message)")
            }
            if data != nil {
                throw ValidationError(
                    "--data and --database are alternatives: the server keeps everything in one of them."
                )
            }
            return location
        }
    }

    /// Off unless a token or loopback access is asked for: a deployed server has no /admin.
    var adminAccess: FerryServerConfiguration.AdminAccess {
        if let token = adminToken ?? ProcessEnvironment.value("FERRY_ADMIN_TOKEN"), !token.isEmpty {
            return .token(token)
        }
        return adminLoopback ? .loopback : .off
    }
}
