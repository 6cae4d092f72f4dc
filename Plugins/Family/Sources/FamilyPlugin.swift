import Foundation
import GRDB
import SyncKernel

/// Family Movie Night: groups, managed members, voting rounds, votes and the
/// exactly-once pick, on the reference server's `/v1/groups` and `/v1/rounds` endpoints.
///
/// Online-only by default, as the family seed decides for v1: every write goes out at
/// once or fails at once with "requires a connection", while cached groups and rounds
/// stay readable. Any operation can be switched to `delivery: queued` in `config.yaml`.
public struct FamilyPlugin: SyncPlugin {
    /// The plugin's own keys in `config.yaml`.
    public typealias Settings = FamilySettings

    /// The plugin's key in `config.yaml` and the prefix of its tables.
    public static let name = "family"
    /// One line for `ferry --help` and `ferry status`.
    public static let summary = "Family movie night: groups, rounds, votes and the pick"

    /// Every write is online-only by default. Votes replace an unsent vote of the same
    /// member on the same movie; the pick is an exactly-once create (first write wins);
    /// other 409s mean the round or group moved on, and the remote's state is adopted.
    public static let operations: [String: OperationPolicy] = [
        FamilyKind.groupCreate.rawValue: OperationPolicy(delivery: .onlineOnly, conflict: .serverWins),
        FamilyKind.memberAdd.rawValue: OperationPolicy(delivery: .onlineOnly, conflict: .serverWins),
        FamilyKind.roundStart.rawValue: OperationPolicy(delivery: .onlineOnly, conflict: .serverWins),
        FamilyKind.roundClose.rawValue: OperationPolicy(delivery: .onlineOnly, coalesce: replace, conflict: .serverWins),
        FamilyKind.suggest.rawValue: OperationPolicy(delivery: .onlineOnly, coalesce: replace, conflict: .serverWins),
        FamilyKind.vote.rawValue: OperationPolicy(delivery: .onlineOnly, coalesce: replace, conflict: .serverWins),
        FamilyKind.pick.rawValue: OperationPolicy(delivery: .onlineOnly, coalesce: replace, conflict: .firstWriteWins),
    ]
    private static let replace = CoalescePolicy(mode: .replace)

    /// The plugin's tables (`family.v1.*`).
    public static var migrations: [StoreMigration] { FamilyMigrations.all }

    /// The plugin's settings from `config.yaml`.
    public let settings: FamilySettings

    /// Builds the plugin from its settings.
    public init(settings: FamilySettings, context: PluginContext) {
        self.settings = settings
    }

    /// Sends one family operation, as the member recorded with it (`X-Acting-As-Member`).
    public func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        guard let kind = FamilyKind(rawValue: operation.kind) else {
            throw FerryError(.plugin, "family has no operation \(operation.kind)")
        }
        let payload = try FamilyPayload.decode(operation)
        if let started = try await roundStartedOffline(besides: payload.round, context: context) {
            // The group has one active round: the round started here may turn out to be
            // this one (a 409 names it), and the writes queued on it then come first.
            return .waitsFor(
                entity: started,
                reason: "the round \(started) started here offline may be this round once it reaches the remote; this waits for it"
            )
        }
        let sender = FamilySender(
            transport: context.transport.with(
                credentials: ActingAsCredentials(base: context.transport.credentials, member: payload.actingAs)
            ),
            now: context.clock.now()
        )
        return try await sender.send(kind, payload, entity: operation.entity)
    }

    /// A round of the same group as `round` (a remote round), started here offline, whose
    /// start is still to be sent; nil when there is none.
    private func roundStartedOffline(besides round: String?, context: PluginContext) async throws -> String? {
        guard let round, !round.hasPrefix(FamilyClient.localPrefix) else { return nil }
        return try await context.store.read { db in
            guard let local = try FamilyCache.localRound(besides: round, in: db) else { return nil }
            let waiting = try Outbox.unsentOperations(plugin: Self.name, entity: local, in: db)
            return waiting.contains { $0.kind == FamilyKind.roundStart.rawValue } ? local : nil
        }
    }

    /// Rewrites cached rows once the remote named an entity created while queued.
    public func remap(localID: String, to remoteID: String, in db: Database) throws {
        try FamilyCache.remap(localID: localID, to: remoteID, in: db)
    }

    /// Checks `ferry auth act-as` against the groups: cached, refreshed once when online.
    public func checkActingAs(_ member: String, account: String, runtime: FerryRuntime) async -> MemberCheck? {
        await FamilyClient(runtime: runtime).actingCheck(member, account: account)
    }

    /// Another account signed in: its groups, members, rounds and votes are fetched again.
    public func forgetAccountData(in db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM family_votes;
                DELETE FROM family_attendees;
                DELETE FROM family_picks;
                DELETE FROM family_suggestions;
                DELETE FROM family_rounds;
                DELETE FROM family_members;
                DELETE FROM family_groups;
                """
        )
    }

    /// Adopts the remote's state after a 409 it won (the other pick, the active round, a closed round).
    public func adoptRemote(_ conflict: ConflictReport, in db: Database) throws {
        try FamilyConflicts.adopt(conflict, in: db)
    }

    /// The active round a round started offline lost to, or the member a member added
    /// offline already was: the writes queued on the local one go to it.
    public func remoteIdentity(of conflict: ConflictReport) -> String? {
        FamilyConflicts.remoteIdentity(of: conflict)
    }

    /// Which movie won a pick race, or where a round started offline went.
    public func describe(_ conflict: ConflictReport) -> String? {
        FamilyConflicts.describe(conflict)
    }
}
