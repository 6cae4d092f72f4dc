import Synchronization

/// One running `POST /v1/batch`, as its sub-requests see it through their context: the
/// batch's user, its idempotency records, and whether a logout has ended its session.
final class BatchRun: Sendable {
    let user: AuthenticatedUser
    let idempotency: BatchIdempotency
    private let ended = Mutex(false)

    init(user: AuthenticatedUser, idempotency: BatchIdempotency) {
        self.user = user
        self.idempotency = idempotency
    }

    /// Whether a sub-request has ended the session: the later ones answer `401 revoked`.
    var sessionEnded: Bool { ended.withLock { $0 } }

    func endSession() {
        ended.withLock { $0 = true }
    }
}
