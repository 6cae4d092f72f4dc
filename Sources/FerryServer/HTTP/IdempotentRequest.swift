import Foundation
import Synchronization

/// The `Idempotency-Key` of the request being handled, so that the transaction of its
/// effect also records its answer (`ServerDatabase.commit`): a crash at any point leaves
/// either nothing, or the effect with its record, which a resend replays.
final class IdempotentRequest: Sendable {
    /// The request the current task handles, set by the dispatcher around the handler.
    @TaskLocal static var current: IdempotentRequest?

    let userID: String
    let key: String
    let fingerprint: String
    private let savedAnswer = Mutex(false)
    private let crash: CrashBeforeRecord

    init(userID: String, key: String, fingerprint: String, crash: CrashBeforeRecord) {
        self.userID = userID
        self.key = key
        self.fingerprint = fingerprint
        self.crash = crash
    }

    /// Whether the answer was recorded with the effect; the dispatcher records it otherwise.
    var isRecorded: Bool { savedAnswer.withLock { $0 } }

    /// Records `response` in the effect's transaction `db`; a 5xx is not recorded (the
    /// request may be retried).
    func record(_ response: APIResponse, now: Date, in db: any SQLSession) throws {
        guard response.status.code < 500 else { return }
        try crash.check()
        try IdempotencyStore.save(db, userID: userID, key: key, fingerprint: fingerprint, response: response, now: now)
        savedAnswer.withLock { $0 = true }
    }
}

extension ServerDatabase {
    /// Runs a handler's `effect` and makes its `answer` in one write transaction; with an
    /// `Idempotency-Key`, the answer is recorded in that transaction too. Every handler
    /// that changes state writes through here.
    ///
    /// A success carries `Ferry-Change`: the last change number issued once the effect
    /// is in (its own, when it changed an entity). A client that presents it when it pulls
    /// (`seen`) learns when a server restored from a backup forgot the write
    /// (docs/protocol.md §6).
    ///
    /// The write first looks for the key's record again: another server instance on the
    /// same database may have answered it since the dispatcher looked. Writes are
    /// serialized, so what it finds is final; the effect does not run twice, and the
    /// record found is thrown as ``IdempotencyStore/Answered`` for the dispatcher to replay.
    func commit<T: Sendable>(
        now: Date,
        _ effect: @escaping @Sendable (any SQLSession) throws -> T,
        answer: @escaping @Sendable (T) -> APIResponse
    ) async throws -> APIResponse {
        let request = IdempotentRequest.current
        return try await write { db in
            if let request, let record = try IdempotencyStore.find(db, userID: request.userID, key: request.key) {
                throw IdempotencyStore.Answered(record: record)
            }
            let noting = ChangeNotingSession(db)
            var response = answer(try effect(noting))
            if (200..<300).contains(response.status.code) {
                let change = try noting.lastChange ?? Entities.highestSequence(db)
                response.headers[Entities.changeHeader] = String(change)
            }
            try request?.record(response, now: now, in: db)
            return response
        }
    }
}
