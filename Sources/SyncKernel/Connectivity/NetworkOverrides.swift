import GRDB

/// The two network pins as stored in the settings table, read together: reachability
/// (`offline`, `online`) and metering (`metered`, `unmetered`), each `auto` when unset or
/// not one of its values.
struct NetworkOverrides: Equatable, Sendable {
    var reachability = NetworkOverride.auto
    var metering = NetworkOverride.auto

    /// The pins stored now, read inside a transaction the caller opened: the engine reads
    /// them in each lease's own write, so that a pin set by any process stops the next lease.
    static func stored(in db: Database) throws -> NetworkOverrides {
        func pin(_ key: String) throws -> NetworkOverride {
            try SettingsStore.text(for: key, in: db).flatMap(NetworkOverride.init(rawValue:)) ?? .auto
        }
        return NetworkOverrides(
            reachability: try pin(ForcedConnectivity.SettingsKey.reachability),
            metering: try pin(ForcedConnectivity.SettingsKey.metering)
        )
    }
}
