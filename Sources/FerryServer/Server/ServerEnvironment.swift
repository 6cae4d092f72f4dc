import Foundation
import Logging

/// Everything a handler may use: configuration, database, clock, faults, statistics.
final class ServerEnvironment: Sendable {
    let configuration: FerryServerConfiguration
    let database: ServerDatabase
    let faults: FaultInjector
    let stats: RequestStats
    let inFlight: IdempotencyInFlight
    let listener: ListenerControl
    /// The router, for the sub-requests of `POST /v1/batch`.
    let subrequests: SubrequestRouter
    let logger: Logger
    let passwords: Passwords
    let metrics: ServerMetrics
    /// Kills the server inside a write, for simulations (`InProcessFerryServer`); never armed otherwise.
    let crashBeforeRecord = CrashBeforeRecord()

    init(configuration: FerryServerConfiguration, database: ServerDatabase, metrics: ServerMetrics) {
        self.configuration = configuration
        self.database = database
        self.faults = FaultInjector(configuration.faults)
        self.stats = RequestStats()
        self.inFlight = IdempotencyInFlight()
        self.listener = ListenerControl()
        self.subrequests = SubrequestRouter()
        self.logger = configuration.logger
        self.passwords = Passwords(cost: configuration.passwordHashCost)
        self.metrics = metrics
    }

    /// The current time from the configured clock.
    var now: Date { configuration.now() }

    /// Closes the database and lets go of the router, which holds this environment: until
    /// then neither is ever freed.
    func close() async {
        subrequests.uninstall()
        await database.close()
    }
}
