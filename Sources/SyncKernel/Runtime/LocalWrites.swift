import Foundation
import GRDB
import Synchronization

/// The one local write, shared by the runtime (`FerryRuntime.commit`) and the plugin
/// contexts it hands to `pull` and `send` (`PluginContext.commit`).
struct LocalWrites: Sendable {
    let store: FerryStore
    let outbox: Outbox
    let events: EventBus
    let clock: any KernelClock
    let credentials: any CredentialProvider
    /// The account this process last recorded as the local data's (`LocalDataAccount`):
    /// only a write under another account records it, so a write costs no statement more.
    private let recorded = RecordedOwner()

    func commit<Value: Sendable>(
        _ write: @escaping @Sendable (Database, inout OperationsToQueue) throws -> Value
    ) async throws -> Committed<Value> {
        let outbox = self.outbox
        let now = clock.now()
        let account = await credentials.writer()
        let owner = account.flatMap { account in recorded.account.withLock { $0 == account } ? nil : account }
        let (value, queued, results) = try await store.write { db in
            if let owner { try LocalDataAccount.recordIfNone(owner, in: db) }
            var queue = OperationsToQueue()
            let value = try write(db, &queue)
            var operations = queue.operations
            for (plugin, entity, removal) in queue.forgotten {
                if let removal, try OutboxQueries.wasSent(plugin: plugin, entity: entity, in: db) {
                    operations.append(removal)
                } else {
                    try Outbox.discardAll(plugin: plugin, entity: entity, in: db)
                }
            }
            let results = try operations.map { try outbox.enqueue($0, account: account, now: now, in: db) }
            return (value, operations, results)
        }
        if let owner { recorded.account.withLock { $0 = owner } }
        for (operation, result) in zip(queued, results) {
            events.emit(
                .enqueued(plugin: operation.plugin, kind: operation.kind, entity: operation.entity, result: result)
            )
        }
        return Committed(value: value, results: results)
    }
}

/// The account a runtime's local writes last recorded as the local data's.
private final class RecordedOwner: Sendable {
    let account = Mutex<String?>(nil)
}
