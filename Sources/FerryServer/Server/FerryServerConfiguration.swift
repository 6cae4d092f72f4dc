import Foundation
import Logging

/// How to start a ``FerryServer``: where it listens, where it stores data, demo data, faults and limits.
///
/// ```swift
/// var configuration = FerryServerConfiguration(port: 0, seedDemo: true)
/// configuration.accessTokenLifetime = 60
/// let server = try await FerryServer.start(configuration)
/// ```
public struct FerryServerConfiguration: Sendable {
    /// The address to bind, `127.0.0.1` by default.
    public var host: String
    /// The port to bind; 0 picks a free port (read it back from ``RunningFerryServer/port``).
    public var port: Int
    /// Where `server.sqlite` lives; nil keeps everything in memory.
    public var dataDirectory: String?
    /// A PostgreSQL database to keep everything in instead of SQLite (``dataDirectory`` is
    /// then unused): several servers may share it, each one stateless.
    public var postgres: PostgresLocation?
    /// Whether to load the demo users and data (see `docs/protocol.md`, "Demo data").
    public var seedDemo: Bool
    /// Faults injected from the start; change them later with `PUT /admin/faults` or ``RunningFerryServer/setFaults(_:)``.
    public var faults: FaultSettings
    /// Where request and server logs go.
    public var logger: Logger

    /// Lifetime of access tokens, in seconds (1 hour by default).
    public var accessTokenLifetime: TimeInterval
    /// Lifetime of refresh tokens, in seconds (30 days by default).
    public var refreshTokenLifetime: TimeInterval
    /// The clock used for token expiry and timestamps; tests inject their own.
    public var now: @Sendable () -> Date
    /// The bcrypt cost for password hashes (4...31; 10 by default, tests may use 4).
    public var passwordHashCost: UInt8
    /// The bearer token (or `api_key`) the TMDB-compatible endpoints accept.
    public var tmdbAccessToken: String
    /// The largest JSON request body, in bytes (1 MiB by default); larger is a 413.
    public var maxBodyBytes: Int
    /// The largest upload (recipe photos), in bytes (8 MiB by default).
    public var maxUploadBytes: Int
    /// The most sub-requests one `POST /v1/batch` may carry.
    public var maxBatchRequests: Int
    /// How long the demo audio tracks last, in seconds each (a few MB in all by default).
    public var demoTrackSeconds: Double
    /// Failed logins allowed per username, then per address, within `loginWindow` seconds;
    /// then `429 too_many_attempts` until the window ends (10 and 100 in 15 minutes).
    public var loginFailuresPerAccount: Int
    public var loginFailuresPerAddress: Int
    public var loginWindow: TimeInterval
    /// How long a request waits for the database while another process holds it, before
    /// it answers `503 database_unavailable` (10 s by default).
    public var databaseBusyTimeout: TimeInterval
    /// Who may use `/admin` (faults, statistics, users): loopback callers by default, for
    /// tests and demos in one process; `ferry serve` turns it off unless told otherwise.
    public var admin: AdminAccess

    /// Who may use the admin endpoints.
    public enum AdminAccess: Sendable, Equatable {
        /// Nobody: `/admin` answers 404, as if it did not exist (a deployed server).
        case off
        /// Callers on the loopback interface (a test, a demo on one machine). Behind a
        /// reverse proxy on the same host every caller is on loopback: use `token` there.
        case loopback
        /// Callers that send `Authorization: Bearer <token>`, from anywhere.
        case token(String)
    }

    /// Creates a configuration; everything not listed takes its documented default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        dataDirectory: String? = nil,
        seedDemo: Bool = false,
        faults: FaultSettings = .init(),
        logger: Logger = Logger(label: "ferry.server")
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.postgres = nil
        self.seedDemo = seedDemo
        self.faults = faults
        self.logger = logger
        self.accessTokenLifetime = 3600
        self.refreshTokenLifetime = 30 * 24 * 3600
        self.now = { Date() }
        self.passwordHashCost = 10
        self.tmdbAccessToken = "ferry-demo-tmdb-token"
        self.maxBodyBytes = 1 << 20
        self.maxUploadBytes = 8 << 20
        self.maxBatchRequests = 500
        self.demoTrackSeconds = 6
        self.admin = .loopback
        self.databaseBusyTimeout = 10
        self.loginFailuresPerAccount = 10
        self.loginFailuresPerAddress = 100
        self.loginWindow = 15 * 60
    }
}
