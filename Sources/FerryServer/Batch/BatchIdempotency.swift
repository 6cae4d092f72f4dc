import Foundation
import Synchronization

/// The idempotency records of one batch's sub-requests.
///
/// The batch claims its keys before it reads their records and holds them until its
/// transaction has committed with the new ones: a request with one of those keys elsewhere
/// either finished before (its record is read and replayed) or answers
/// `409 idempotency_key_in_flight` until the batch is done, as it would beside a request
/// sent alone. A key already claimed elsewhere when the batch starts makes its sub-request
/// answer that 409.
final class BatchIdempotency: Sendable {
    private struct State {
        var records: [String: IdempotencyStore.Record] = [:]
        var unsaved: [(key: String, record: IdempotencyStore.Record)] = []
    }

    let userID: String
    /// Keys held by another request when the batch started.
    private let busy: Set<String>
    private let claimed: [String]
    private let inFlight: IdempotencyInFlight
    private let crash: CrashBeforeRecord
    private let state = Mutex(State())

    /// Claims `keys` for `userID`; ``release()`` gives them back.
    init(claiming keys: [String], userID: String, inFlight: IdempotencyInFlight, crash: CrashBeforeRecord) {
        var claimed: [String] = []
        var busy: Set<String> = []
        for key in Set(keys) {
            if inFlight.claim(Self.claim(userID, key)) { claimed.append(key) } else { busy.insert(key) }
        }
        self.userID = userID
        self.busy = busy
        self.claimed = claimed
        self.inFlight = inFlight
        self.crash = crash
    }

    /// How a key is claimed in `IdempotencyInFlight`, the same for a batch and a lone request.
    static func claim(_ userID: String, _ key: String) -> String { "\(userID)\n\(key)" }

    /// Reads the records of the claimed keys in one read.
    func load(from database: ServerDatabase) async throws {
        let (userID, keys) = (userID, claimed)
        let records = try await database.read { db in try IdempotencyStore.findAll(db, userID: userID, keys: keys) }
        state.withLock { $0.records = records }
    }

    /// Whether `key` was held by another request when the batch started.
    func isBusy(_ key: String) -> Bool { busy.contains(key) }

    /// The record of `key`, saved before the batch or made earlier in it.
    func record(for key: String) -> IdempotencyStore.Record? {
        state.withLock { $0.records[key] }
    }

    /// Remembers the answer to `key`, for a later sub-request with the same key and for ``save(_:now:)``.
    func remember(key: String, fingerprint: String, response: APIResponse) {
        let record = IdempotencyStore.Record(fingerprint: fingerprint, response: response)
        state.withLock { state in
            state.records[key] = record
            state.unsaved.append((key, record))
        }
    }

    /// Saves the answers remembered so far, in the batch's transaction `db`.
    func save(_ db: any SQLSession, now: Date) throws {
        let unsaved = state.withLock { state in
            defer { state.unsaved = [] }
            return state.unsaved
        }
        guard !unsaved.isEmpty else { return }
        try crash.check()
        try IdempotencyStore.saveAll(db, userID: userID, unsaved, now: now)
    }

    /// Gives the claimed keys back.
    func release() {
        for key in claimed { inFlight.release(Self.claim(userID, key)) }
    }
}
