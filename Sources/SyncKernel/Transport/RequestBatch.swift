import Foundation

/// Puts the requests of operations delivered together on the wire as one batch.
///
/// Each operation's `send` runs as usual, concurrently with the others, through an
/// executor that hands its requests here. When every operation still sending is waiting
/// for an answer (or busy with a request that cannot be batched), or `linger` after the
/// first request arrived, the waiting requests leave as one `POST` to the batch endpoint
/// and each gets its own answer back, so the plugin, the transport's credential renewal
/// and the failure classes see exactly what they would have seen had the request gone
/// alone. Requests that go alone share the engine's `RequestLimiter`. A remote without a
/// batch endpoint (404, 405, 501) gets each request alone, and `refused` says so.
actor RequestBatch {
    private let wire: BatchSender
    private let base: String
    private let linger: Duration
    private var sending: Int
    private var alone = 0
    private var waiting: [BatchSender.Waiting] = []
    private var round = 0

    /// A batch for `participants` operations sending through `executor` to the remote at `base`.
    init(
        participants: Int,
        executor: any HTTPExecutor,
        base: String,
        path: String,
        limiter: RequestLimiter = RequestLimiter(permits: 8),
        linger: Duration = .milliseconds(50)
    ) {
        self.sending = participants
        self.base = base
        self.linger = linger
        self.wire = BatchSender(
            executor: executor,
            endpoint: base.trimmingSuffix("/") + path,
            refusal: OnceFlag(),
            limiter: limiter
        )
    }

    /// Whether the remote answered that it has no batch endpoint.
    nonisolated var refused: Bool { wire.refusal.isSet }

    /// The executor an operation of this batch sends through.
    nonisolated var participantExecutor: any HTTPExecutor { BatchedExecutor(batch: self) }

    /// Sends `request` with the batch, or alone when it cannot travel in one.
    func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
        guard !wire.refusal.isSet, let item = BatchWire.item(request, base: base) else {
            alone += 1
            defer {
                alone -= 1
                flushIfReady()
            }
            return try await wire.sendAlone(request, maxBodyBytes: maxBodyBytes)
        }
        return try await withCheckedThrowingContinuation { continuation in
            waiting.append(.init(request: request, item: item, maxBodyBytes: maxBodyBytes, continuation: continuation))
            if waiting.count == 1 { flushAfterLinger() }
            flushIfReady()
        }
    }

    /// An operation of the batch has finished sending.
    func leave() {
        sending -= 1
        flushIfReady()
    }

    private func flushIfReady() {
        guard !waiting.isEmpty, waiting.count + alone >= sending else { return }
        flush()
    }

    /// Bounds the wait for an operation that is busy with something other than a request
    /// (a plugin waiting out a third party's `Retry-After`): a latency bound, so real time.
    private func flushAfterLinger() {
        let (round, linger) = (self.round, self.linger)
        Task {
            try? await Task.sleep(for: linger)
            self.flush(round: round)
        }
    }

    private func flush(round: Int) {
        guard round == self.round, !waiting.isEmpty else { return }
        flush()
    }

    private func flush() {
        let taken = waiting
        waiting = []
        round += 1
        let wire = self.wire
        Task { await wire.send(taken) }
    }
}

/// The executor of one operation in a batch.
private struct BatchedExecutor: HTTPExecutor {
    let batch: RequestBatch

    func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
        try await batch.execute(request, maxBodyBytes: maxBodyBytes)
    }
}
