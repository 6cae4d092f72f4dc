import Foundation
import Synchronization

/// The idempotency records of one batch's sub-requests: looked up together before they
/// run and saved together after, so that a sub-request costs one database access (its
/// own write) instead of three. Keys stay claimed until the records are saved, so a
/// concurrent duplicate waits as it would for a request sent alone.
final class BatchIdempotency: Sendable {
    private struct Unsaved {
        var key: String
        var fingerprint: String
        var response: APIResponse
    }

    private struct State {
        var records: [String: IdempotencyStore.Record]
        var unsaved: [Unsaved] = []
        var claims: [String] = []
    }

    let userID: String
    private let state: Mutex<State>

    private init(userID: String, records: [String: IdempotencyStore.Record]) {
        self.userID = userID
        self.state = Mutex(State(records: records))
    }

    /// Loads the records of `keys` for `userID` in one read.
    static func load(keys: [String], userID: String, database: ServerDatabase) async throws -> BatchIdempotency {
        let records = try await database.read { db in
            try IdempotencyStore.findAll(db, userID: userID, keys: keys)
        }
        return BatchIdempotency(userID: userID, records: records)
    }

    /// The record of `key`, saved before the batch or made earlier in it.
    func record(for key: String) -> IdempotencyStore.Record? {
        state.withLock { $0.records[key] }
    }

    /// Keeps `claim` until `save` (the claim on a key whose record is not saved yet).
    func hold(_ claim: String) {
        state.withLock { $0.claims.append(claim) }
    }

    /// Remembers the answer to `key`, for a later sub-request with the same key and for `save`.
    func remember(key: String, fingerprint: String, response: APIResponse) {
        state.withLock { state in
            state.records[key] = IdempotencyStore.Record(fingerprint: fingerprint, response: response)
            state.unsaved.append(Unsaved(key: key, fingerprint: fingerprint, response: response))
        }
    }

    /// Saves the batch's new records in one write and releases their keys.
    func save(database: ServerDatabase, inFlight: IdempotencyInFlight, now: Date) async throws {
        let (unsaved, claims) = state.withLock { state in
            defer {
                state.unsaved = []
                state.claims = []
            }
            return (state.unsaved, state.claims)
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
