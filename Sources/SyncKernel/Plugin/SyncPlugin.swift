import Foundation
import GRDB

/// A domain plugin: its tables, its operations and how each reaches the remote,
/// an optional pull, and what it does when the remote disagrees.
///
/// Only `name`, `operations` and `init(settings:context:)` are required, and `send` for a
/// plugin that has operations; every other hook has a default.
///
/// ```swift
/// struct NotesPlugin: SyncPlugin {
///     static let name = "notes"
///     static let operations = ["put": OperationPolicy(coalesce: .init(mode: .replace))]
///     init(settings: EmptySettings, context: PluginContext) { ... }
///     func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome { ... }
/// }
/// ```
public protocol SyncPlugin: Sendable {
    /// The plugin's settings, decoded from its section of `config.yaml`.
    associatedtype Settings: Codable & Sendable = EmptySettings

    /// The plugin's key in `config.yaml` and the prefix of its tables.
    static var name: String { get }
    /// One line for `ferry --help` and `ferry status`.
    static var summary: String { get }
    /// Every operation kind the plugin sends, with its default policy; `config.yaml` may override them.
    static var operations: [String: OperationPolicy] { get }
    /// The plugin's schema steps, ids prefixed with the plugin's name.
    static var migrations: [StoreMigration] { get }
    /// Whether each of the plugin's operations goes in a delivery of its own, never beside
    /// others of the plugin in one batch: for sends that are transfers rather than
    /// requests. Nothing in a file download can be batched, and the downloads of one
    /// delivery would run at once, taking their room in the file cache in an order nobody
    /// chose. Default: false, operations go together (`sync.batch_size`).
    static var sendsAlone: Bool { get }

    /// This instance's name: `Self.name` for a plugin type, the section name for a domain
    /// declared in YAML.
    var pluginName: String { get }

    /// Builds the plugin from its settings.
    init(settings: Settings, context: PluginContext) throws

    /// Sends one operation to the remote through `context.transport` and says what became
    /// of it (`SendOutcome`: delivered, already done, waits for another entity, needs a
    /// person, conflict) and what to store.
    ///
    /// Throw only what the transport threw (`RemoteFailure`, `TransportFailure`) or an answer
    /// that cannot be read; the kernel classifies every failure (`FailureClass.classify`).
    func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome

    /// Pulls remote changes into the plugin's tables. Default: nothing to pull.
    func pull(_ context: PluginContext) async throws -> PullSummary

    /// Background work the runner does after this plugin's pull succeeded (never a refresh
    /// command's pull): fetching files the pull made useful, such as posters. It must be
    /// bounded and must never fail: what cannot be done now is left for the next pass.
    /// Default: nothing.
    func afterPull(_ context: PluginContext) async

    /// Applies one unsent operation again on top of the remote's state of its entity, in
    /// the transaction that stored that state: the rebase. The kernel calls it for each of
    /// the entity's unsent operations, oldest first, wherever the remote's state lands: a
    /// change a pull applied, a delivered answer whose `LocalChange` stored the remote's
    /// entity, a conflict the remote won. Make the rows show the operation's effect, as the
    /// local write did; it must be safe to run more than once. Default: nothing to apply.
    func reapply(_ operation: QueuedOperation, in db: Database) throws

    /// Rewrites the plugin's rows after the remote gave a local entity its id, in the
    /// transaction that records the mapping. Default: nothing to rewrite.
    func remap(localID: String, to remoteID: String, in db: Database) throws

    /// Undoes the local effect of an operation a person discarded (`ferry queue discard`, a
    /// login that discards another account's work), in the transaction that drops it, and
    /// says whether its entity is gone with it (a movie added offline): the kernel then
    /// drops the entity's other operations too. The next pull restores the remote's state
    /// of the rest. Default: nothing to undo, the entity stays.
    func discarded(_ operation: QueuedOperation, in db: Database) throws -> Bool

    /// Adopts the remote's state after a conflict the remote won. Default: nothing to adopt.
    func adoptRemote(_ conflict: ConflictReport, in db: Database) throws

    /// The remote entity that a local one turned out to be, when the remote refused its
    /// creation because that entity already stands in its place (a round started offline
    /// while the group had one active: one active round per group). The kernel maps the
    /// local id to it as if the create had returned it (`remap(localID:to:in:)` included),
    /// after `adoptRemote`, so the writes queued on the local entity go to the remote one
    /// instead of waiting for an id that will never come. Default: nil, the local entity
    /// is gone and writes waiting for it end as dead letters that say so.
    func remoteIdentity(of conflict: ConflictReport) -> String?

    /// The fields of the remote's entity that `operation` sets, as a JSON object keyed as
    /// the entity is (a cleared field as `null`), so that a conflict on it is merged field
    /// by field: only a field the remote also changed, to another value, is a conflict, and
    /// the policy decides that field alone. The operation's payload must then be a JSON
    /// object with the same keys (the kernel drops the fields the remote won from it).
    /// Default: nil, the operation writes the entity whole and a conflict is decided whole.
    func fieldChanges(_ operation: QueuedOperation) throws -> Data?

    /// Merges a conflicting write for the `merge` policy. Default: not supported.
    func merge(base: Data?, local: Data, remote: Data, kind: String) throws -> Data

    /// When the remote entity of a conflict was last written, for `last_write_wins`.
    /// Default: its `updated_at` field.
    func remoteUpdatedAt(_ remote: Data) -> Date?

    /// What signing out would remove from this plugin's local data, for the confirmation
    /// prompt; nil when nothing. Default: nil.
    func localDataAtRisk(in db: Database) throws -> String?

    /// How many downloaded files signing out removes from this device, for the second
    /// confirmation ("Signing out will remove 12 files, are you sure?"). Default: 0.
    func filesRemovedBySignOut(_ context: PluginContext) async throws -> Int

    /// Removes those files and their records, once the person confirmed and before the
    /// session ends. Default: nothing to remove.
    func removeFilesForSignOut(_ context: PluginContext) async throws

    /// Forgets this plugin's local copy of an account's data (its caches), because another
    /// account signed in on this device, in the transaction that resets the pull cursors:
    /// the next pull rebuilds it from the remote. Files go first, through
    /// `removeFilesForSignOut`. Queued operations stay with their account; leave them and
    /// the kernel's tables alone. Default: nothing to forget.
    func forgetAccountData(in db: Database) throws

    /// Whether the signed-in `account` may act as `member` (`ferry auth act-as`), as far as
    /// this plugin's data tells: its cache, refreshed once when the remote is reachable.
    /// Default: nil, the plugin knows no members.
    func checkActingAs(_ member: String, account: String, runtime: FerryRuntime) async -> MemberCheck?

    /// One sentence about a conflict in the domain's words (which movie won), for
    /// `ferry conflicts list` and the runner's output. Default: nil, the remote's reason.
    func describe(_ conflict: ConflictReport) -> String?
}

/// Settings of a plugin that has none.
public struct EmptySettings: Codable, Sendable {
    /// No settings.
    public init() {}
}

extension SyncPlugin {
    /// No summary line.
    public static var summary: String { "" }
    /// False: operations go together in batches.
    public static var sendsAlone: Bool { false }
    /// `Self.name`.
    public var pluginName: String { Self.name }
    /// No tables of its own.
    public static var migrations: [StoreMigration] { [] }

    /// A plugin without operations sends nothing: a `plugin` error names the stray kind.
    public func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        throw FerryError(.plugin, "\(pluginName) sends no queued operations (got \(operation.kind))")
    }

    /// Nothing to pull: an empty summary.
    public func pull(_ context: PluginContext) async throws -> PullSummary { PullSummary() }

    /// Nothing to do after a pull.
    public func afterPull(_ context: PluginContext) async {}

    /// Nothing to apply again.
    public func reapply(_ operation: QueuedOperation, in db: Database) throws {}

    /// Nothing to rewrite.
    public func remap(localID: String, to remoteID: String, in db: Database) throws {}

    /// Nothing to undo; the entity stays.
    public func discarded(_ operation: QueuedOperation, in db: Database) throws -> Bool { false }

    /// Nil: the operation writes its entity whole.
    public func fieldChanges(_ operation: QueuedOperation) throws -> Data? { nil }

    /// Nil: no members here.
    public func checkActingAs(_ member: String, account: String, runtime: FerryRuntime) async -> MemberCheck? { nil }

    /// Nothing to forget.
    public func forgetAccountData(in db: Database) throws {}

    /// Nothing to adopt.
    public func adoptRemote(_ conflict: ConflictReport, in db: Database) throws {}

    /// Nil: a local entity the remote refused is gone.
    public func remoteIdentity(of conflict: ConflictReport) -> String? { nil }

    /// Throws a `plugin` error: this plugin cannot merge, so the conflict waits for a person.
    public func merge(base: Data?, local: Data, remote: Data, kind: String) throws -> Data {
        throw FerryError(
            .plugin,
            "\(Self.name).\(kind) uses the merge conflict policy but the plugin has no merge; choose another policy in config.yaml"
        )
    }

    /// The entity's `updated_at`, as ISO-8601 with or without fractional seconds; nil when
    /// it has none.
    public func remoteUpdatedAt(_ remote: Data) -> Date? {
        guard let object = try? JSONSerialization.jsonObject(with: remote) as? [String: Any],
            let text = object["updated_at"] as? String
        else { return nil }
        return ISO8601DateFormatter.ferry.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }

    /// Nil: nothing at risk.
    public func localDataAtRisk(in db: Database) throws -> String? { nil }

    /// No files.
    public func filesRemovedBySignOut(_ context: PluginContext) async throws -> Int { 0 }

    /// Nothing to remove.
    public func removeFilesForSignOut(_ context: PluginContext) async throws {}

    /// Nil: the remote's reason describes the conflict.
    public func describe(_ conflict: ConflictReport) -> String? { nil }
}

extension ISO8601DateFormatter {
    /// ISO-8601 with fractional seconds, as the kernel writes timestamps.
    public static var ferry: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
