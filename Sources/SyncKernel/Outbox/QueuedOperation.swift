import Foundation
import GRDB

/// One write waiting to reach a remote: a row of the outbox.
///
/// The `id` doubles as the `Idempotency-Key` sent with the request, so a resend after
/// a crash is recognised by the remote as the same write.
public struct QueuedOperation: Sendable, Hashable, Identifiable {
    /// Insertion order; operations on one entity go out in this order.
    public var sequence: Int64
    /// A time-ordered UUID (version 7), stable across retries and restarts and sent as
    /// `Idempotency-Key`; a conflict resolved by resending gives it a new one.
    public var id: UUID
    /// The name of the plugin that sends it.
    public var plugin: String
    /// The operation's kind; it picks the policy.
    public var kind: String
    /// The entity this operation changes; operations on one entity go out in order.
    public var entity: String
    /// The operation's JSON payload, as the plugin encoded it.
    public var payload: Data
    /// The entity as the plugin last knew it from the remote, for merges.
    public var base: Data?
    /// When its write was made: when it was queued, or when the latest write folded into it
    /// was. The `last_write_wins` policy compares it with the remote's `updated_at`.
    public var createdAt: Date
    /// Attempts that reached the remote and failed; offline tries are not counted.
    public var attempts: Int
    /// When it is due next (after a backoff, or a wait for connectivity).
    public var nextAttemptAt: Date
    /// Where it stands in the outbox.
    public var state: OperationState
    /// The runner sending it (`host:pid`) while it is in flight.
    public var leaseOwner: String?
    /// When its lease runs out and another runner may reclaim it.
    public var leaseUntil: Date?
    /// Why the last attempt failed, or what it waits for, as a person reads it.
    public var lastError: String?
    /// True once the operation has been handed to the transport, or the remote's state under
    /// it came from elsewhere (a pull, a conflict the remote won): a newer write is no longer
    /// folded into it.
    public var dispatched: Bool
    /// Send without a precondition: set when a conflict was resolved in favour of this write.
    public var force: Bool
    /// The operation waits for an unmetered network.
    public var requiresUnmetered: Bool
    /// The account the operation was queued under, if a credential provider knows one.
    public var account: String?
    /// The entity of the same plugin this operation waits for (`SendOutcome.waitsFor`), if any.
    public var dependsOn: String? = nil
    /// What a pending operation waits for, as the engine recorded it.
    var waitingFor: WaitingFor? = nil
    /// Whether the plugin knew the remote's state of the entity when it made this write
    /// (`NewOperation.remoteKnown`).
    public var remoteKnown: Bool = true

    /// Decodes the payload as `T`.
    public func decodePayload<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try JSONDecoder.ferry.decode(T.self, from: payload)
        } catch {
            throw FerryError(
                .plugin,
                "operation \(id) (\(plugin).\(kind)) has a payload that does not decode as \(T.self): \(error)",
                underlying: error
            )
        }
    }
}

extension QueuedOperation: FetchableRecord {
    /// Reads a row of the outbox.
    ///
    /// - Throws: a `storage` error when the stored id is not a UUID: inventing one would make
    ///   the remote apply the write a second time.
    public init(row: Row) throws {
        sequence = row["seq"]
        let text: String = row["id"]
        guard let id = UUID(uuidString: text) else {
            // The id is the idempotency key: inventing one would make the remote apply the
            // write a second time.
            throw FerryError(
                .storage,
                "operation \(sequence) in the store has an unreadable id \"\(text)\"; the store was changed outside Ferry; restore it from a backup"
            )
        }
        self.id = id
        plugin = row["plugin"]
        kind = row["kind"]
        entity = row["entity"]
        payload = row["payload"]
        base = row["base"]
        createdAt = Date(timeIntervalSince1970: row["created_at"])
        attempts = row["attempts"]
        nextAttemptAt = Date(timeIntervalSince1970: row["next_attempt_at"])
        state = OperationState(rawValue: row["state"]) ?? .dead
        leaseOwner = row["lease_owner"]
        leaseUntil = (row["lease_until"] as Double?).map(Date.init(timeIntervalSince1970:))
        lastError = row["last_error"]
        dispatched = row["dispatched"]
        force = row["force"]
        requiresUnmetered = row["requires_unmetered"]
        account = row["account"]
        dependsOn = row["depends_on"]
        waitingFor = (row["waiting_for"] as String?).flatMap(WaitingFor.init(rawValue:))
        remoteKnown = !row["remote_unknown"]
    }
}

extension JSONDecoder {
    /// The decoder the kernel uses for payloads and remote bodies: snake_case keys, ISO-8601 dates.
    public static var ferry: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension JSONEncoder {
    /// The encoder the kernel uses for payloads and request bodies: snake_case keys, ISO-8601 dates.
    public static var ferry: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
