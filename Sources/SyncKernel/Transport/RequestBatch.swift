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
            await self.flush(round: round)
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

/// Puts gathered requests on the wire: together as a batch, or alone.
struct BatchSender: Sendable {
    struct Waiting: Sendable {
        var request: PreparedRequest
        var item: BatchWire.Item
        var maxBodyBytes: Int
        var continuation: CheckedContinuation<HTTPResponse, any Error>
    }

    let executor: any HTTPExecutor
    let endpoint: String
    let refusal: OnceFlag
    let limiter: RequestLimiter

    /// Sends the requests, a batch per credentials, and resumes each with its answer.
    func send(_ taken: [Waiting]) async {
        let groups = Dictionary(grouping: taken) { $0.request.header("Authorization") ?? "" }
        await withTaskGroup(of: Void.self) { tasks in
            for group in groups.values {
                tasks.addTask { await sendGroup(group) }
            }
        }
    }

    /// One request goes alone; several go as one batch.
    private func sendGroup(_ group: [Waiting]) async {
        await group.count == 1 ? sendEachAlone(group) : sendTogether(group)
    }

    func sendAlone(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
        try await limiter.run { try await executor.execute(request, maxBodyBytes: maxBodyBytes) }
    }

    private func sendTogether(_ group: [Waiting]) async {
        let answer: HTTPResponse
        do {
            answer = try await executor.execute(try batchRequest(group), maxBodyBytes: 1 << 30)
        } catch {
            for waiting in group { waiting.continuation.resume(throwing: error) }
            return
        }
        switch answer.status {
        case 200..<300:
            guard let responses = BatchWire.decode(answer.body, count: group.count) else {
                // The requests may have run; resent alone with their idempotency keys, each
                // gets its own answer (or the replay of it).
                return await sendEachAlone(group)
            }
            var refusedInside: [Waiting] = []
            for (waiting, response) in zip(group, responses) {
                if Self.isNotBatchable(response) {
                    refusedInside.append(waiting)
                } else if response.body.count > waiting.maxBodyBytes {
                    waiting.continuation.resume(
                        throwing: TransportFailure(reason: "the answer is larger than \(waiting.maxBodyBytes) bytes")
                    )
                } else {
                    waiting.continuation.resume(returning: response)
                }
            }
            await sendEachAlone(refusedInside)
        case 413:
            // Too large for the remote: each half tries again.
            let half = group.count / 2
            async let first: Void = sendGroup(Array(group[..<half]))
            async let second: Void = sendGroup(Array(group[half...]))
            _ = await (first, second)
        case 401, 403, 408, 429, 500, 502...599:
            // About the batch as a whole (credentials, load): each request gets the same answer.
            for waiting in group { waiting.continuation.resume(returning: answer) }
        case 404, 405, 501:
            refusal.set()
            await sendEachAlone(group)
        default:
            await sendEachAlone(group)
        }
    }

    private func batchRequest(_ group: [Waiting]) throws -> PreparedRequest {
        let first = group[0].request
        return PreparedRequest(
            method: "POST",
            url: endpoint,
            headers: [
                ("User-Agent", first.header("User-Agent") ?? "Ferry"),
                ("Accept", "application/json"),
                ("Content-Type", "application/json"),
                ("Authorization", first.header("Authorization") ?? ""),
            ],
            body: try BatchWire.encode(group.map(\.item)),
            timeout: group.map(\.request.timeout).max() ?? first.timeout
        )
    }

    private func sendEachAlone(_ group: [Waiting]) async {
        await withTaskGroup(of: Void.self) { tasks in
            for waiting in group {
                tasks.addTask {
                    do {
                        waiting.continuation.resume(
                            returning: try await sendAlone(waiting.request, maxBodyBytes: waiting.maxBodyBytes)
                        )
                    } catch {
                        waiting.continuation.resume(throwing: error)
                    }
                }
            }
        }
    }

    /// A sub-request the remote will not take inside a batch (docs/protocol.md: `400
    /// not_batchable`); it is sent again alone.
    private static func isNotBatchable(_ response: HTTPResponse) -> Bool {
        guard response.status == 400,
            let body = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let error = body["error"] as? [String: Any]
        else { return false }
        return error["code"] as? String == "not_batchable"
    }
}

/// The executor of one operation in a batch.
private struct BatchedExecutor: HTTPExecutor {
    let batch: RequestBatch

    func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
        try await batch.execute(request, maxBodyBytes: maxBodyBytes)
    }
}
