import Foundation

/// Puts the requests of operations delivered together on the wire as one batch.
///
/// Each operation's `send` runs as usual, concurrently with the others, through an
/// executor that hands its requests here. When every operation still sending has a request
/// waiting here, or `linger` after the first request arrived, the waiting requests leave as
/// one `POST` to the batch endpoint, in the order of their operations in the queue
/// (whatever order the tasks ran in), and each gets its own answer back, so the plugin,
/// the transport's credential renewal and the failure classes see exactly what they would
/// have seen had the request gone alone. An operation busy with something else (a request
/// that cannot be batched, a third party's answer) is waited for, up to `linger`: what
/// travels together then depends on what the operations send, not on how their tasks
/// were scheduled. Requests that go alone share the engine's `RequestLimiter`. A remote
/// without a batch endpoint (404, 405, 501) gets each request alone, and `refused` says so.
///
/// `.inTurn`, the operations run one at a time instead (`BatchTurns`), their credential
/// work aside from the turns and all together, and the batch leaves exactly when each has
/// a request in it or has ended.
actor RequestBatch {
    private let wire: BatchSender
    private let base: String
    private let linger: Duration?
    private let turns: BatchTurns?
    private var sending: Int
    /// The requests waiting to leave, each with its operation's place in the queue.
    private var waiting: [(participant: Int, request: BatchSender.Waiting)] = []
    private var round = 0

    /// A batch for `participants` operations sending through `executor` to the remote at `base`.
    init(
        participants: Int,
        executor: any HTTPExecutor,
        base: String,
        path: String,
        limiter: RequestLimiter = RequestLimiter(permits: 8),
        batching: FerryRuntime.Batching = .atOnce(linger: .milliseconds(50))
    ) {
        self.sending = participants
        self.base = base
        switch batching {
        case .atOnce(let linger): (self.linger, self.turns) = (linger, nil)
        case .inTurn: (self.linger, self.turns) = (nil, BatchTurns(participants: participants))
        }
        self.wire = BatchSender(
            executor: executor,
            endpoint: base.trimmingSuffix("/") + path,
            refusal: OnceFlag(),
            limiter: limiter
        )
    }

    /// Whether the remote answered that it has no batch endpoint.
    nonisolated var refused: Bool { wire.refusal.isSet }

    /// The executor the operation at `participant` (its place in the queue) sends through.
    nonisolated func participantExecutor(_ participant: Int) -> any HTTPExecutor {
        BatchedExecutor(batch: self, participant: participant)
    }

    /// Where the credential work of the operation at `participant` runs: aside from the
    /// turns when the operations take them (`BatchTurns.aside`), else where it is.
    nonisolated func participantTurn(_ participant: Int) -> BatchTurns.Participant? {
        turns.map { BatchTurns.Participant(turns: $0, who: participant) }
    }

    /// Runs the `send` of the operation at `participant` (its place in the queue), in its
    /// turns when they take them; the batch stops waiting for it once `send` returns.
    nonisolated func participate<T: Sendable>(_ participant: Int, _ send: () async -> T) async -> T {
        await turns?.take(participant)
        let result = await send()
        await leave()
        turns?.release(participant)
        return result
    }

    /// Sends `request` of the operation at `participant` with the batch, or alone when it
    /// cannot travel in one.
    func execute(_ request: PreparedRequest, participant: Int, maxBodyBytes: Int) async throws -> HTTPResponse {
        guard !wire.refusal.isSet, let item = BatchWire.item(request, base: base) else {
            return try await wire.sendAlone(request, maxBodyBytes: maxBodyBytes)
        }
        let answer: Result<HTTPResponse, any Error>
        do {
            answer = .success(
                try await withCheckedThrowingContinuation { continuation in
                    let request = BatchSender.Waiting(request: request, item: item, maxBodyBytes: maxBodyBytes, continuation: continuation)
                    waiting.append((participant, request))
                    if waiting.count == 1 { flushAfterLinger() }
                    flushIfReady()
                    turns?.release(participant)
                }
            )
        } catch {
            answer = .failure(error)
        }
        await turns?.take(participant)
        return try answer.get()
    }

    /// An operation of the batch has finished sending.
    private func leave() {
        sending -= 1
        flushIfReady()
    }

    private func flushIfReady() {
        guard !waiting.isEmpty, waiting.count >= sending else { return }
        flush()
    }

    /// Bounds the wait for an operation that is busy with something other than a request
    /// (a plugin waiting out a third party's `Retry-After`): a latency bound, so real time.
    private func flushAfterLinger() {
        guard let linger else { return }
        let round = self.round
        Task.apart { [self] in
            try? await Task.sleep(for: linger)
            await flush(round: round)
        }
    }

    private func flush(round: Int) {
        guard round == self.round, !waiting.isEmpty else { return }
        flush()
    }

    private func flush() {
        // A stable sort: one operation's requests keep the order it made them in.
        let taken = waiting.enumerated()
            .sorted { ($0.element.participant, $0.offset) < ($1.element.participant, $1.offset) }
            .map(\.element.request)
        let answered = waiting.map(\.participant)
        waiting = []
        round += 1
        let (wire, turns) = (self.wire, self.turns)
        turns?.wake([BatchTurns.wire])
        Task.apart {
            await turns?.take(BatchTurns.wire)
            await wire.send(taken)
            turns?.wake(answered)
            turns?.release(BatchTurns.wire)
        }
    }
}

/// The executor of one operation in a batch.
private struct BatchedExecutor: HTTPExecutor {
    let batch: RequestBatch
    let participant: Int

    func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
        try await batch.execute(request, participant: participant, maxBodyBytes: maxBodyBytes)
    }
}
