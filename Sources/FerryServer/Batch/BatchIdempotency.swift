import Foundation
import Synchronization

/// The idempotency records of one batch's sub-requests: looked up together before they
/// run. A sub-request's effect records its answer in its own transaction
/// (`ServerDatabase.commit`); answers without an effect (refusals) are saved together
/// after the batch.
///
/// The batch claims its keys before it reads their records and holds them until it has
/// saved the new ones: a request with one of those keys elsewhere either finished before
/// (its record is read and replayed) or answers `409 idempotency_key_in_flight` until the
/// batch is done, as it would beside a request sent alone. A key already claimed elsewhere
/// when the batch starts makes its sub-request answer that 409.
final class BatchIdempotency: Sendable {
    private struct Unsaved {
        var key: String
        var fingerprint: String
        var response: APIResponse
    }

    private struct State {
        var records: [String: IdempotencyStore.Record]
        var unsaved: [Unsaved] = []
    }

    let userID: String
    /// Keys held by another request when the batch started.
    private let busy: Set<String>
    private let claims: [String]
    private let state: Mutex<State>

    private init(userID: String, records: [String: IdempotencyStore.Record], busy: Set<String>, claims: [String]) {
        self.userID = userID
        self.busy = busy
        self.claims = claims
        self.state = Mutex(State(records: records))
    }

    /// Claims `keys` for `userID`, then loads their records in one read.
    static func begin(
        keys: [String],
        userID: String,
        database: ServerDatabase,
        inFlight: IdempotencyInFlight
    ) async throws -> BatchIdempotency {
        var claimed: [String] = []
        var busy: Set<String> = []
        for key in Set(keys) {
            if inFlight.claim(claim(userID, key)) { claimed.append(key) } else { busy.insert(key) }
        }
        do {
            let records = try await database.read { [claimed] db in
                try IdempotencyStore.findAll(db, userID: userID, keys: claimed)
            }
            return BatchIdempotency(
                userID: userID,
                records: records,
                busy: busy,
                claims: claimed.map { claim(userID, $0) }
            )
        } catch {
            for key in claimed { inFlight.release(claim(userID, key)) }
            throw error
        }
    }

    /// How a key is claimed in `IdempotencyInFlight`, the same for a batch and a lone request.
    static func claim(_ userID: String, _ key: String) -> String { "\(userID)\n\(key)" }

    /// Whether `key` was held by another request when the batch started.
    func isBusy(_ key: String) -> Bool { busy.contains(key) }

    /// The record of `key`, saved before the batch or made earlier in it.
    func record(for key: String) -> IdempotencyStore.Record? {
        state.withLock { $0.records[key] }
    }

    /// Remembers the answer to `key`, for a later sub-request with the same key, and for
    /// `finish` unless it was `saved` with its effect.
    func remember(key: String, fingerprint: String, response: APIResponse, saved: Bool) {
        state.withLock { state in
            state.records[key] = IdempotencyStore.Record(fingerprint: fingerprint, response: response)
            if !saved { state.unsaved.append(Unsaved(key: key, fingerprint: fingerprint, response: response)) }
        }
    }

    /// Saves the batch's new records in one write and releases its keys.
    func finish(database: ServerDatabase, inFlight: IdempotencyInFlight, now: Date) async throws {
        let unsaved = state.withLock { state in
            defer { state.unsaved = [] }
            return state.unsaved
        }
        defer { for claim in claims { inFlight.release(claim) } }
        guard !unsaved.isEmpty else { return }
        let userID = userID
        try await database.write { db in
            for record in unsaved {
                try IdempotencyStore.save(
                    db,
                    userID: userID,
                    key: record.key,
                    fingerprint: record.fingerprint,
                    response: record.response,
                    now: now
                )
            }
        }
    }
}
