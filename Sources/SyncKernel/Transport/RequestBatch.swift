import Foundation
import Synchronization

/// Puts the requests of operations delivered together on the wire as one batch.
///
/// Each operation's `send` runs as usual, concurrently with the others, through an
/// executor that hands its requests here. When every operation still sending is waiting
/// for an answer (or busy with a request that cannot be batched), the waiting requests
/// leave as one `POST` to the batch endpoint and each gets its own answer back, so the
/// plugin, the transport's credential renewal and the failure classes see exactly what
/// they would have seen had the request gone alone. A remote without a batch endpoint
/// (404, 405, 501) gets each request alone, and `refused` says so.
actor RequestBatch {
    private struct Waiting {
        var request: PreparedRequest
        var item: BatchWire.Item
        var maxBodyBytes: Int
        var continuation: CheckedContinuation<HTTPResponse, any Error>
    }

    private let executor: any HTTPExecutor
    private let base: String
    private let endpoint: String
    private let refusal = OnceFlag()
    private var sending: Int
    private var alone = 0
    private var waiting: [Waiting] = []

    /// A batch for `participants` operations sending through `executor` to the remote at `base`.
    init(participants: Int, executor: any HTTPExecutor, base: String, path: String) {
        self.sending = participants
        self.executor = executor
        self.base = base
        self.endpoint = base.trimmingSuffix("/") + path
    }

    /// Whether the remote answered that it has no batch endpoint.
    nonisolated var refused: Bool { refusal.isSet }

    /// The executor an operation of this batch sends through.
    nonisolated var participantExecutor: any HTTPExecutor { BatchedExecutor(batch: self) }

    /// Sends `request` with the batch, or alone when it cannot travel in one.
    func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
        guard !refusal.isSet, let item = BatchWire.item(request, base: base) else {
            alone += 1
            defer {
                alone -= 1
                flushIfReady()
            }
            return try await executor.execute(request, maxBodyBytes: maxBodyBytes)
        }
        return try await withCheckedThrowingContinuation { continuation in
            waiting.append(Waiting(request: request, item: item, maxBodyBytes: maxBodyBytes, continuation: continuation))
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
        let taken = waiting
        waiting = []
        let (executor, endpoint, refusal) = (self.executor, self.endpoint, self.refusal)
        Task { await Self.send(taken, executor: executor, endpoint: endpoint, refusal: refusal) }
    }

    /// Sends the waiting requests, grouped by credentials, and resumes each with its answer.
    private static func send(
        _ taken: [Waiting],
        executor: any HTTPExecutor,
        endpoint: String,
        refusal: OnceFlag
    ) async {
        let groups = Dictionary(grouping: taken) { $0.request.header("Authorization") ?? "" }
        await withTaskGroup(of: Void.self) { tasks in
            for group in groups.values {
                tasks.addTask {
                    if group.count == 1 {
                        await sendAlone(group, executor: executor)
                    } else {
                        await sendTogether(group, executor: executor, endpoint: endpoint, refusal: refusal)
                    }
                }
            }
        }
    }

    private static func sendTogether(
        _ group: [Waiting],
        executor: any HTTPExecutor,
        endpoint: String,
        refusal: OnceFlag
    ) async {
        let answer: HTTPResponse
        do {
            let first = group[0].request
            let request = PreparedRequest(
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
            let limit = group.reduce(0) { $0 &+ $1.maxBodyBytes }
            answer = try await executor.execute(request, maxBodyBytes: min(limit, 1 << 30))
        } catch {
            for waiting in group { waiting.continuation.resume(throwing: error) }
            return
        }
        switch answer.status {
        case 200..<300:
            guard let responses = BatchWire.decode(answer.body, count: group.count) else {
                // The requests may have run; resent alone with their idempotency keys, each
                // gets its own answer (or the replay of it).
                return await sendAlone(group, executor: executor)
            }
            for (waiting, response) in zip(group, responses) { waiting.continuation.resume(returning: response) }
        case 401, 403, 408, 429, 500, 502...599:
            // About the batch as a whole (credentials, load): each request gets the same answer.
            for waiting in group { waiting.continuation.resume(returning: answer) }
        case 404, 405, 501:
            refusal.set()
            await sendAlone(group, executor: executor)
        default:
            await sendAlone(group, executor: executor)
        }
    }

    private static func sendAlone(_ group: [Waiting], executor: any HTTPExecutor) async {
        await withTaskGroup(of: Void.self) { tasks in
            for waiting in group {
                tasks.addTask {
                    do {
                        let response = try await executor.execute(waiting.request, maxBodyBytes: waiting.maxBodyBytes)
                        waiting.continuation.resume(returning: response)
                    } catch {
                        waiting.continuation.resume(throwing: error)
                    }
                }
            }
        }
    }
}

/// The executor of one operation in a batch.
private struct BatchedExecutor: HTTPExecutor {
    let batch: RequestBatch

    func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
        try await batch.execute(request, maxBodyBytes: maxBodyBytes)
    }
}
