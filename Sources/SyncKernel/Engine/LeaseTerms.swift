import Foundation
import GRDB

/// What a lease goes under, gathered by the engine before the lease's write: the
/// connectivity it saw and the network overrides that connectivity assumed, the signed-in
/// account, the enabled plugins and how many operations go in one delivery.
struct LeaseTerms: Sendable {
    let plugins: Set<String>
    let now: Date
    let owner: String
    let until: Date
    let connectivity: ConnectivityState
    /// The overrides `connectivity` was worked out under: the lease goes only while they
    /// are still the stored ones.
    let overrides: NetworkOverrides
    let account: String?
    let batchSize: Int
    /// Plugins whose remote has no batch endpoint: their operations go alone.
    let unbatched: Set<String>

    /// What a lease's write did.
    enum Outcome: Sendable {
        case leased([[QueuedOperation]])
        /// A network pin changed since the engine looked (in any process): nothing was
        /// leased, and these are the pins stored now.
        case overridesChanged(NetworkOverrides)
    }

    /// Inside a write: leases the next due operations of the plugins not held for a login
    /// whose requirements hold, grouped into at most `slots` deliveries.
    ///
    /// The overrides are read in this same transaction, so a pin set by any process before
    /// it stops the lease even though the engine worked out `connectivity` earlier.
    func lease(slots: Int, in db: Database) throws -> Outcome {
        let stored = try NetworkOverrides.stored(in: db)
        guard stored == overrides else { return .overridesChanged(stored) }
        let held = try String.fetchSet(
            db.cachedStatement(sql: "SELECT plugin FROM kernel_plugin_state WHERE needs_login = 1")
        )
        let active = plugins.subtracting(held)
        guard !active.isEmpty else { return .leased([]) }
        let due = try OutboxQueries.due(
            now: now,
            limit: slots * batchSize,
            plugins: active,
            unmeteredAvailable: !connectivity.metered,
            account: account,
            in: db
        )
        let deliveries = DeliveryPlan.deliveries(due, slots: slots) { plugin in
            unbatched.contains(plugin) ? 1 : batchSize
        }
        try OutboxQueries.lease(deliveries.joined().map(\.sequence), owner: owner, until: until, in: db)
        return .leased(deliveries)
    }
}
