import Foundation
import GRDB

/// A change to local rows that a send's outcome brings with it, run in the transaction that
/// records the outcome. If it throws, nothing of the outcome is recorded and the error is
/// classified as the send's failure: one that may pass (a full disk, an answer that does not
/// decode) sends the operation again after a backoff; SQL that fails makes it a dead letter
/// whose reason names the plugin and the error. The operation never stays in flight.
public typealias LocalChange = @Sendable (Database) throws -> Void

/// What became of a send, as the plugin read the remote's answer.
///
/// A plugin returns an outcome for every answer it understood, and throws only what the
/// transport threw (or an answer it could not read); the kernel classifies thrown errors
/// (`FailureClass.classify`) and records every outcome, so no plugin decides retries.
///
/// ```swift
/// return .delivered(remoteID: created.id) { db in
///     try db.execute(sql: "UPDATE notes SET version = ? WHERE id = ?", arguments: [created.version, created.id])
/// }
/// ```
public enum SendOutcome: Sendable {
    /// The remote did what the operation asked. `remoteID` is the id it gave an entity
    /// created with a local id (the kernel remaps it); `remote` is the entity as the answer
    /// gave it, which becomes the base (`QueuedOperation.base`, its `If-Match`) of the
    /// entity's later writes, made on top of this one; `apply` records the answer (the
    /// remote's new version) in the transaction that removes the operation from the outbox.
    case delivered(remoteID: String? = nil, remote: Data? = nil, apply: LocalChange? = nil)
    /// The remote had already done it (a delete of something already gone, an add the list
    /// already holds): acknowledged like `delivered`, and the reason is logged.
    case alreadyDone(reason: String, remoteID: String? = nil, apply: LocalChange? = nil)
    /// The entity is gone from the remote: a delete it carried out, or found done already
    /// (`alreadyGone` says why; it is logged). Acknowledged like `delivered`; the entity's
    /// later writes, made after the deletion, lose their base (no `If-Match`): they create
    /// the entity again rather than meet the deletion as a conflict.
    case deleted(alreadyGone: String? = nil, apply: LocalChange? = nil)
    /// The operation refers to another entity of the same plugin that has not reached the
    /// remote yet (a vote on a round created offline). It waits, spending no attempt, until
    /// that entity's operations have left the outbox (its local id remapped in this
    /// operation's payload), then goes. If that entity has nothing left to send because it
    /// reached the remote meanwhile (a send beside this one delivered it, and the remote
    /// named it), this goes again at once; if it was discarded, this becomes a dead letter
    /// that says so.
    case waitsFor(entity: String, reason: String)
    /// Only a person can take it further (a title with several matches, an entity that
    /// never reached the remote): a dead letter with the reason. `apply` records what the
    /// person needs (the candidates) in the transaction that dead-letters the operation.
    case needsPerson(reason: String, apply: LocalChange? = nil)
    /// The plugin's configuration is wrong for this operation (a third party refused the
    /// credentials `config.yaml` gives it): the operation waits, spending nothing, until the
    /// plugin's section of the configuration changes, and then goes by itself.
    case needsConfiguration(reason: String)
    /// The remote holds something else than the operation expected, said in a successful
    /// answer rather than with 409 or 412: the operation's conflict policy decides, as for
    /// a 409. `remote` is the remote's entity, if the answer carried it.
    case conflict(reason: String, remote: Data?)

    /// Delivered; nothing else to record.
    public static var delivered: SendOutcome { .delivered(remoteID: nil, apply: nil) }

    /// The id the remote gave the entity, for `delivered` and `alreadyDone`; nil otherwise.
    public var remoteID: String? { acknowledgement?.remoteID }

    /// The remote id, the base of the entity's later writes and the local change of an
    /// acknowledged outcome; nil for the others.
    var acknowledgement: (remoteID: String?, base: LaterBase, apply: LocalChange?)? {
        switch self {
        case .delivered(let remoteID, let remote, let apply):
            return (remoteID, remote.map(LaterBase.remote) ?? .unchanged, apply)
        case .alreadyDone(_, let remoteID, let apply):
            return (remoteID, .unchanged, apply)
        case .deleted(_, let apply):
            return (nil, .cleared, apply)
        case .waitsFor, .needsPerson, .needsConfiguration, .conflict:
            return nil
        }
    }

    /// Why the remote had done it already, for `alreadyDone` and a `deleted` found gone.
    var alreadyDoneReason: String? {
        switch self {
        case .alreadyDone(let reason, _, _): return reason
        case .deleted(let reason, _): return reason
        default: return nil
        }
    }

    /// What an acknowledgement makes of the base of the entity's later writes.
    enum LaterBase {
        /// They keep the base they were made on: the answer did not carry the entity.
        case unchanged
        /// The remote's entity as the answer gave it.
        case remote(Data)
        /// None: the remote deleted the entity.
        case cleared
    }

    /// How the kernel reads an outcome that is not an acknowledgement, with the local change
    /// that goes with it; nil for an acknowledgement.
    var failure: (FailureClass, alongside: LocalChange?)? {
        switch self {
        case .delivered, .alreadyDone, .deleted:
            return nil
        case .waitsFor(let entity, let reason):
            return (.waitsFor(entity: entity, reason: reason), nil)
        case .needsPerson(let reason, let apply):
            return (.rejected(reason: reason), apply)
        case .needsConfiguration(let reason):
            return (.misconfigured(reason: reason), nil)
        case .conflict(let reason, let remote):
            return (.conflict(status: 409, reason: reason, remote: remote), nil)
        }
    }
}

/// What a pull did, for the runner's summary.
public struct PullSummary: Sendable, Equatable {
    /// Rows inserted or updated from the remote.
    public var upserted: Int
    /// Rows removed because the remote deleted them (or, in a resync, no longer has them).
    public var deleted: Int
    /// Rows kept as they are locally because writes to them are still pending.
    public var rebased: Int

    /// Creates a summary; every count defaults to zero.
    public init(upserted: Int = 0, deleted: Int = 0, rebased: Int = 0) {
        self.upserted = upserted
        self.deleted = deleted
        self.rebased = rebased
    }

    /// The counts of both summaries added up.
    public static func + (lhs: PullSummary, rhs: PullSummary) -> PullSummary {
        PullSummary(
            upserted: lhs.upserted + rhs.upserted,
            deleted: lhs.deleted + rhs.deleted,
            rebased: lhs.rebased + rhs.rebased
        )
    }
}
