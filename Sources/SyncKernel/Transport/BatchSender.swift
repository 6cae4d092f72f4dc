import Foundation

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

    /// Sends the requests, a batch per credentials (in the order of their first request),
    /// and resumes each with its answer.
    ///
    /// One request after another, here and below: what meets the network first is the
    /// requests' order, not the scheduler's. This is the rare path (a token renewed
    /// mid-batch, a remote that refused the batch), so it costs little.
    func send(_ taken: [Waiting]) async {
        var groups: [(authorization: String, requests: [Waiting])] = []
        for waiting in taken {
            let authorization = waiting.request.header("Authorization") ?? ""
            if let index = groups.firstIndex(where: { $0.authorization == authorization }) {
                groups[index].requests.append(waiting)
            } else {
                groups.append((authorization, [waiting]))
            }
        }
        for group in groups { await sendGroup(group.requests) }
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
            // The batch's answer gets the largest cap of its requests, not their sum: one
            // too large for it is resent alone, each request within its own cap.
            let cap = group.map(\.maxBodyBytes).max() ?? 0
            answer = try await executor.execute(try batchRequest(group), maxBodyBytes: cap)
        } catch is AnswerTooLarge {
            return await sendEachAlone(group)
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
                    waiting.continuation.resume(throwing: AnswerTooLarge(limit: waiting.maxBodyBytes))
                } else {
                    waiting.continuation.resume(returning: response)
                }
            }
            await sendEachAlone(refusedInside)
        case 413:
            // Too large for the remote: each half tries again.
            let half = group.count / 2
            await sendGroup(Array(group[..<half]))
            await sendGroup(Array(group[half...]))
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
            body: BatchWire.encode(group.map(\.item)),
            timeout: group.map(\.request.timeout).max() ?? first.timeout
        )
    }

    private func sendEachAlone(_ group: [Waiting]) async {
        for waiting in group {
            do {
                waiting.continuation.resume(returning: try await sendAlone(waiting.request, maxBodyBytes: waiting.maxBodyBytes))
            } catch {
                waiting.continuation.resume(throwing: error)
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
