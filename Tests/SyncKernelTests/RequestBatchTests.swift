import Foundation
import Synchronization
import Testing

@testable import SyncKernel

/// A batch that never flushes leaves its participants waiting forever: every test runs its
/// participants under `finishing`, which turns that into a failure instead of a hung run.
@Suite("Request batch: concurrent operations' requests leave as one")
struct RequestBatchTests {
    static let base = "http://remote.test"

    /// An executor that answers each request with `answer` and records it.
    final class ScriptedExecutor: HTTPExecutor {
        private let log = Mutex<[PreparedRequest]>([])
        private let answer: @Sendable (PreparedRequest) async throws -> HTTPResponse

        init(_ answer: @escaping @Sendable (PreparedRequest) async throws -> HTTPResponse) {
            self.answer = answer
        }

        var requests: [PreparedRequest] { log.withLock { $0 } }
        var batches: [PreparedRequest] { requests.filter { $0.url.hasSuffix("/v1/batch") } }
        var alone: [PreparedRequest] { requests.filter { !$0.url.hasSuffix("/v1/batch") } }

        func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
            log.withLock { $0.append(request) }
            return try await answer(request)
        }
    }

    /// A continuation resumed by whichever comes first.
    final class Waiter<T: Sendable>: Sendable {
        private let slot = Mutex<CheckedContinuation<T?, Never>?>(nil)

        func set(_ continuation: CheckedContinuation<T?, Never>) {
            slot.withLock { $0 = continuation }
        }

        func resume(returning value: T?) {
            slot.withLock { $0.take() }?.resume(returning: value)
        }
    }

    /// A gate tasks wait at until it opens.
    actor Gate {
        private var isOpen = false
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func wait() async {
            if isOpen { return }
            await withCheckedContinuation { waiters.append($0) }
        }

        func open() {
            isOpen = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }

    /// A request of participant `index`: `PUT /v1/saved-recipes/r{index}` with its own key.
    static func request(_ index: Int, token: String = "t1") -> PreparedRequest {
        PreparedRequest(
            method: "PUT",
            url: base + "/v1/saved-recipes/r\(index)",
            headers: [
                ("User-Agent", "Ferry"), ("Accept", "application/json"), ("Authorization", "Bearer \(token)"),
                ("Idempotency-Key", "op-\(index)"),
            ],
            body: nil,
            timeout: 30
        )
    }

    /// The path of a request below `base`.
    static func path(_ request: PreparedRequest) -> String {
        String(request.url.dropFirst(base.count))
    }

    /// The status the remote gives `path` (distinct per participant): 200 + the participant's index.
    static func status(for path: String) -> Int {
        200 + (Int(path.split(separator: "r").last ?? "") ?? 0)
    }

    /// The answer to a request sent alone: `{"alone": path}`.
    static func loneAnswer(_ request: PreparedRequest) -> HTTPResponse {
        let path = path(request)
        return HTTPResponse(
            status: status(for: path),
            headers: ["content-type": "application/json", "x-echo": path],
            body: try! JSONSerialization.data(withJSONObject: ["alone": path])
        )
    }

    /// The sub-requests of a batch request.
    static func subrequests(_ batch: PreparedRequest) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: batch.body ?? Data()) as? [String: Any])
        return try #require(object["requests"] as? [[String: Any]])
    }

    /// A `200` batch answer with, for each sub-request, `{"batched": path}` and its status.
    static func batchAnswer(_ batch: PreparedRequest) throws -> HTTPResponse {
        let responses = try subrequests(batch).map { sub -> [String: Any] in
            let path = sub["path"] as? String ?? "?"
            return ["status": status(for: path), "headers": ["X-Echo": path], "body": ["batched": path]]
        }
        return HTTPResponse(
            status: 200,
            headers: ["content-type": "application/json"],
            body: try JSONSerialization.data(withJSONObject: ["responses": responses])
        )
    }

    /// The remote when the batch endpoint works: a batch answer, or the lone answer.
    static func answer(_ request: PreparedRequest) throws -> HTTPResponse {
        request.url.hasSuffix("/v1/batch") ? try batchAnswer(request) : loneAnswer(request)
    }

    /// A batch whose linger outlasts any delay between its participants' arrivals, however
    /// loaded the machine: it leaves once every participant is in (the linger's own tests
    /// set theirs).
    static func batch(
        _ participants: Int,
        _ executor: some HTTPExecutor,
        base: String = base,
        path: String = "/v1/batch"
    ) -> RequestBatch {
        RequestBatch(
            participants: participants,
            executor: executor,
            base: base,
            path: path,
            batching: .atOnce(linger: .seconds(10))
        )
    }

    /// The value of `body`, or nil (and a recorded issue) when it is still waiting after
    /// `seconds`: a watchdog against a batch that never flushes, not a timing assumption.
    /// A minute: in a full test run on two busy cores, a body waited over 20 s for the
    /// pool before its batch could flush.
    static func finishing<T: Sendable>(
        within seconds: Int = 60,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: @escaping @Sendable () async -> T
    ) async -> T? {
        let waiter = Waiter<T>()
        let value = await withCheckedContinuation { continuation in
            waiter.set(continuation)
            Task {
                waiter.resume(returning: await body())
            }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                waiter.resume(returning: nil)
            }
        }
        if value == nil {
            Issue.record(
                "participants still waiting after \(seconds)s: the batch never flushed",
                sourceLocation: sourceLocation
            )
        }
        return value
    }

    /// Runs one participant per request, each sending its request then leaving; `nil`
    /// entries are participants that leave without sending. Results in participant order
    /// (all nil when they never finish).
    static func run(
        _ batch: RequestBatch,
        _ requests: [PreparedRequest?],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> [Result<HTTPResponse, any Error>?] {
        await finishing(sourceLocation: sourceLocation) { await participate(batch, requests) }
            ?? Array(repeating: nil, count: requests.count)
    }

    private static func participate(
        _ batch: RequestBatch,
        _ requests: [PreparedRequest?]
    ) async -> [Result<HTTPResponse, any Error>?] {
        await withTaskGroup(of: (Int, Result<HTTPResponse, any Error>?).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    await batch.participate(index) {
                        guard let request else { return (index, nil) }
                        do {
                            return (
                                index,
                                .success(
                                    try await batch.participantExecutor(index).execute(request, maxBodyBytes: 1 << 20)
                                )
                            )
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
            }
            var results = [Result<HTTPResponse, any Error>?](repeating: nil, count: requests.count)
            for await (index, result) in group { results[index] = result }
            return results
        }
    }

    static func json(_ response: HTTPResponse) throws -> [String: String] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: String])
    }

    /// Expects participant n's answer to name its own recipe, `rn`, as answered `how`
    /// ("batched" or "alone").
    static func expectEachAnswered(
        _ how: String,
        _ results: [Result<HTTPResponse, any Error>?],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for (index, result) in results.enumerated() {
            let response = try #require(try result?.get(), sourceLocation: sourceLocation)
            #expect(try json(response) == [how: "/v1/saved-recipes/r\(index + 1)"], sourceLocation: sourceLocation)
        }
    }

    // MARK: -

    @Test func threeParticipantsRequestsLeaveAsOnePostAndEachGetsItsOwnAnswer() async throws {
        let executor = ScriptedExecutor { try Self.answer($0) }
        let batch = Self.batch(3, executor)
        let results = await Self.run(batch, [Self.request(1), Self.request(2), Self.request(3)])

        #expect(executor.requests.count == 1)
        let sent = try #require(executor.requests.first)
        #expect(sent.method == "POST")
        #expect(sent.url == Self.base + "/v1/batch")
        #expect(sent.header("Authorization") == "Bearer t1")
        #expect(sent.header("Content-Type") == "application/json")
        let subs = try Self.subrequests(sent)
        #expect(subs.count == 3)
        #expect(
            Set(subs.compactMap { $0["path"] as? String }) == [
                "/v1/saved-recipes/r1", "/v1/saved-recipes/r2", "/v1/saved-recipes/r3",
            ]
        )
        for sub in subs {
            let path = try #require(sub["path"] as? String)
            #expect(sub["method"] as? String == "PUT")
            // Each keeps its own idempotency key; the credentials travel once, outside.
            #expect(sub["headers"] as? [String: String] == ["Idempotency-Key": "op-\(path.suffix(1))"])
        }

        for (index, result) in results.enumerated() {
            let response = try #require(try result?.get())
            let path = "/v1/saved-recipes/r\(index + 1)"
            #expect(response.status == 200 + index + 1)
            #expect(response.headers["x-echo"] == path)
            #expect(try Self.json(response) == ["batched": path])
        }
        #expect(batch.refused == false)
    }

    @Test func aBatchAnswerOverTheLimitIsNotReadAndEachRequestGoesAlone() async throws {
        let executor = ScriptedExecutor { request in
            // As the executor does when the answer is larger than its cap (the largest
            // participant's, never the sum of them).
            if request.url.hasSuffix("/v1/batch") { throw AnswerTooLarge(limit: 1 << 20) }
            return Self.loneAnswer(request)
        }
        let batch = Self.batch(3, executor)
        let results = await Self.run(batch, [Self.request(1), Self.request(2), Self.request(3)])
        #expect(executor.batches.count == 1)
        #expect(executor.alone.count == 3)
        try Self.expectEachAnswered("alone", results)
    }

    @Test func theBatchGoesToTheConfiguredPathBelowTheBase() async throws {
        let executor = ScriptedExecutor { _ in HTTPResponse(status: 404, headers: [:], body: Data()) }
        let batch = Self.batch(2, executor, base: Self.base + "/", path: "/bulk")
        _ = await Self.run(batch, [Self.request(1), Self.request(2)])
        #expect(executor.requests.first?.url == Self.base + "/bulk")
    }

    @Test func aParticipantThatLeavesWithoutSendingDoesNotHoldTheOthersBack() async throws {
        let executor = ScriptedExecutor { try Self.answer($0) }
        let batch = Self.batch(3, executor)
        let results = await Self.run(batch, [Self.request(1), nil, Self.request(3)])

        #expect(executor.requests.count == 1)
        let subs = try Self.subrequests(try #require(executor.batches.first))
        #expect(Set(subs.compactMap { $0["path"] as? String }) == ["/v1/saved-recipes/r1", "/v1/saved-recipes/r3"])
        #expect(try Self.json(try #require(try results[0]?.get())) == ["batched": "/v1/saved-recipes/r1"])
        #expect(results[1] == nil)
        #expect(try Self.json(try #require(try results[2]?.get())) == ["batched": "/v1/saved-recipes/r3"])
    }

    @Test func requestsLeaveInTheOrderOfTheirOperationsWhateverOrderTheyArrivedIn() async throws {
        let executor = ScriptedExecutor { try Self.answer($0) }
        let batch = Self.batch(3, executor)
        let turns = [Gate(), Gate(), Gate()]
        _ = await Self.finishing {
            await withTaskGroup(of: Void.self) { group in
                // The last operation's request arrives first, the first one's last.
                for participant in 0..<3 {
                    group.addTask {
                        if participant < 2 { await turns[participant + 1].wait() }
                        await turns[participant].open()
                        await batch.participate(participant) {
                            _ = try? await batch.participantExecutor(participant)
                                .execute(Self.request(participant + 1), maxBodyBytes: 1 << 20)
                        }
                    }
                }
            }
        }
        let subs = try Self.subrequests(try #require(executor.batches.first))
        #expect(
            subs.compactMap { $0["path"] as? String } == [
                "/v1/saved-recipes/r1", "/v1/saved-recipes/r2", "/v1/saved-recipes/r3",
            ]
        )
    }

    @Test func aParticipantBusyWithARequestThatCannotBeBatchedHoldsTheOthersBackOnlyForTheLinger() async throws {
        let batched = Gate()
        let executor = ScriptedExecutor { request in
            if request.url.hasSuffix("/v1/batch") {
                await batched.open()
                return try Self.batchAnswer(request)
            }
            // The photo upload answers only once the others' batch has left.
            await batched.wait()
            return Self.loneAnswer(request)
        }
        let batch = RequestBatch(participants: 3, executor: executor, base: Self.base, path: "/v1/batch")
        let photo = PreparedRequest(
            method: "PUT",
            url: Self.base + "/v1/recipes/r2",
            headers: [("Authorization", "Bearer t1"), ("Content-Type", "image/png")],
            body: Data([0x89, 0x50, 0x4E, 0x47]),
            timeout: 30
        )
        let results = await Self.run(batch, [Self.request(1), photo, Self.request(3)])

        #expect(executor.batches.count == 1)
        #expect(try Self.subrequests(try #require(executor.batches.first)).count == 2)
        #expect(executor.alone.map(\.url) == [Self.base + "/v1/recipes/r2"])
        #expect(try Self.json(try #require(try results[1]?.get())) == ["alone": "/v1/recipes/r2"])
        #expect(try Self.json(try #require(try results[0]?.get())) == ["batched": "/v1/saved-recipes/r1"])
    }

    @Test func aParticipantWithASecondRequestSendsItInTheNextBatch() async throws {
        let executor = ScriptedExecutor { try Self.answer($0) }
        let batch = Self.batch(2, executor)
        let results = await Self.finishing {
            await withTaskGroup(of: [HTTPResponse].self) { group in
                group.addTask {
                    await batch.participate(0) {
                        let first = try? await batch.participantExecutor(0).execute(
                            Self.request(1),
                            maxBodyBytes: 1 << 20
                        )
                        let second = try? await batch.participantExecutor(0).execute(
                            Self.request(3),
                            maxBodyBytes: 1 << 20
                        )
                        return [first, second].compactMap { $0 }
                    }
                }
                group.addTask {
                    await batch.participate(1) {
                        let only = try? await batch.participantExecutor(1).execute(
                            Self.request(2),
                            maxBodyBytes: 1 << 20
                        )
                        return [only].compactMap { $0 }
                    }
                }
                var all: [HTTPResponse] = []
                for await responses in group { all += responses }
                return all
            }
        }
        #expect(results?.count == 3)
        // The first round leaves together; the second request, alone in its round, goes alone.
        #expect(executor.batches.count == 1)
        #expect(executor.alone.map(\.url) == [Self.base + "/v1/saved-recipes/r3"])
    }

    @Test func eachAuthorizationLeavesInABatchOfItsOwn() async throws {
        let executor = ScriptedExecutor { try Self.answer($0) }
        let batch = Self.batch(4, executor)
        let results = await Self.run(
            batch,
            [
                Self.request(1, token: "t1"), Self.request(2, token: "t2"), Self.request(3, token: "t1"),
                Self.request(4, token: "t2"),
            ]
        )
        #expect(executor.alone.isEmpty)
        let byToken = Dictionary(grouping: executor.batches) { $0.header("Authorization") ?? "" }
        #expect(Set(byToken.keys) == ["Bearer t1", "Bearer t2"])
        let t1 = try Self.subrequests(try #require(byToken["Bearer t1"]?.first)).compactMap { $0["path"] as? String }
        let t2 = try Self.subrequests(try #require(byToken["Bearer t2"]?.first)).compactMap { $0["path"] as? String }
        #expect(Set(t1) == ["/v1/saved-recipes/r1", "/v1/saved-recipes/r3"])
        #expect(Set(t2) == ["/v1/saved-recipes/r2", "/v1/saved-recipes/r4"])
        try Self.expectEachAnswered("batched", results)
    }

    @Test func aSingleParticipantsRequestGoesAlone() async throws {
        let executor = ScriptedExecutor { Self.loneAnswer($0) }
        let batch = Self.batch(1, executor)
        let results = await Self.run(batch, [Self.request(1)])
        #expect(executor.batches.isEmpty)
        #expect(executor.alone.map(\.url) == [Self.base + "/v1/saved-recipes/r1"])
        #expect(try Self.json(try #require(try results[0]?.get())) == ["alone": "/v1/saved-recipes/r1"])
    }

    // MARK: - The batch's own answer

    @Test func anOuter503WithRetryAfterIsEveryParticipantsAnswer() async throws {
        let executor = ScriptedExecutor { _ in
            HTTPResponse(
                status: 503,
                headers: ["retry-after": "120", "content-type": "application/json"],
                body: Data(#"{"error":{"code":"unavailable","message":"later","details":{}}}"#.utf8)
            )
        }
        let batch = Self.batch(3, executor)
        let results = await Self.run(batch, [Self.request(1), Self.request(2), Self.request(3)])

        #expect(executor.requests.count == 1, "nothing is resent alone: the remote asked to wait")
        for result in results {
            let response = try #require(try result?.get())
            #expect(response.status == 503)
            #expect(response.headers["retry-after"] == "120")
        }
        // Each operation classifies it as it would a 503 of its own request.
        let answer = try #require(try results[0]?.get())
        let failure = RemoteFailure(status: answer.status, headers: answer.headers, body: answer.body)
        guard case .transient(_, let retryAfter) = FailureClass.classify(failure, now: Date()) else {
            Issue.record("a 503 is transient")
            return
        }
        #expect(retryAfter == 120)
        #expect(batch.refused == false)
    }

    @Test(arguments: [401, 403, 408, 429, 500, 502, 504])
    func anOuterAnswerAboutTheWholeBatchIsEveryParticipantsAnswer(_ status: Int) async throws {
        let executor = ScriptedExecutor { _ in HTTPResponse(status: status, headers: [:], body: Data()) }
        let batch = Self.batch(2, executor)
        let results = await Self.run(batch, [Self.request(1), Self.request(2)])
        #expect(executor.requests.count == 1)
        #expect(try results.map { try #require(try $0?.get()).status } == [status, status])
    }

    @Test(arguments: [404, 405, 501])
    func aRemoteWithoutABatchEndpointGetsEachRequestAloneAndTheBatchIsRefused(_ status: Int) async throws {
        let executor = ScriptedExecutor { request in
            request.url.hasSuffix("/v1/batch")
                ? HTTPResponse(status: status, headers: [:], body: Data()) : Self.loneAnswer(request)
        }
        let batch = Self.batch(3, executor)
        let results = await Self.run(batch, [Self.request(1), Self.request(2), Self.request(3)])

        #expect(executor.batches.count == 1)
        let alone = executor.alone
        #expect(Set(alone.map(\.url)) == Set((1...3).map { Self.base + "/v1/saved-recipes/r\($0)" }))
        // Sent alone exactly as the operation prepared it, credentials and key included.
        for request in alone {
            #expect(request.header("Authorization") == "Bearer t1")
            #expect(request.header("Idempotency-Key") == "op-\(request.url.suffix(1))")
        }
        for (index, result) in results.enumerated() {
            let response = try #require(try result?.get())
            #expect(response.status == 200 + index + 1)
            #expect(try Self.json(response) == ["alone": "/v1/saved-recipes/r\(index + 1)"])
        }
        #expect(batch.refused)
    }

    @Test func afterARefusalTheSameBatchSendsFurtherRequestsAloneAtOnce() async throws {
        let executor = ScriptedExecutor { request in
            request.url.hasSuffix("/v1/batch")
                ? HTTPResponse(status: 404, headers: [:], body: Data()) : Self.loneAnswer(request)
        }
        let batch = Self.batch(2, executor)
        _ = await Self.finishing {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await batch.participate(0) {
                        _ = try? await batch.participantExecutor(0).execute(Self.request(1), maxBodyBytes: 1 << 20)
                        _ = try? await batch.participantExecutor(0).execute(Self.request(3), maxBodyBytes: 1 << 20)
                    }
                }
                group.addTask {
                    await batch.participate(1) {
                        _ = try? await batch.participantExecutor(1).execute(Self.request(2), maxBodyBytes: 1 << 20)
                        // Still sending (not left) while the other sends its second request.
                        _ = try? await batch.participantExecutor(1).execute(Self.request(4), maxBodyBytes: 1 << 20)
                    }
                }
            }
        }
        #expect(batch.refused)
        #expect(executor.batches.count == 1, "a refused batch endpoint is not asked again")
        #expect(executor.alone.count == 4)
    }

    @Test(arguments: [400, 422, 302])
    func anotherOuterStatusSendsEachRequestAloneWithoutRefusingBatches(_ status: Int) async throws {
        let executor = ScriptedExecutor { request in
            request.url.hasSuffix("/v1/batch")
                ? HTTPResponse(status: status, headers: [:], body: Data()) : Self.loneAnswer(request)
        }
        let batch = Self.batch(2, executor)
        let results = await Self.run(batch, [Self.request(1), Self.request(2)])
        #expect(executor.alone.count == 2)
        #expect(
            try results.map { try Self.json(try #require(try $0?.get()))["alone"] } == [
                "/v1/saved-recipes/r1", "/v1/saved-recipes/r2",
            ]
        )
        #expect(batch.refused == false)
    }

    @Test func aTransportFailureIsThrownToEachParticipant() async throws {
        let executor = ScriptedExecutor { _ in throw TransportFailure(reason: "POST /v1/batch: connection reset") }
        let batch = Self.batch(3, executor)
        let results = await Self.run(batch, [Self.request(1), Self.request(2), Self.request(3)])

        #expect(executor.requests.count == 1, "no answer came: nothing is resent alone in the same pass")
        for result in results {
            let outcome = try #require(result)
            guard case .failure(let error) = outcome else {
                Issue.record("expected the transport failure, got \(outcome)")
                continue
            }
            #expect((error as? TransportFailure)?.reason == "POST /v1/batch: connection reset")
        }
    }

    @Test(arguments: [
        "<html>Bad gateway</html>",
        #"{"responses":[{"status":200,"headers":{},"body":null}]}"#,  // one answer for three
        "",
    ])
    func anUnreadable2xxSendsEachRequestAlone(_ body: String) async throws {
        let executor = ScriptedExecutor { request in
            request.url.hasSuffix("/v1/batch")
                ? HTTPResponse(status: 200, headers: [:], body: Data(body.utf8)) : Self.loneAnswer(request)
        }
        let batch = Self.batch(3, executor)
        let results = await Self.run(batch, [Self.request(1), Self.request(2), Self.request(3)])

        #expect(executor.batches.count == 1)
        #expect(executor.alone.count == 3)
        try Self.expectEachAnswered("alone", results)
        #expect(batch.refused == false)
    }

    @Test func aBatchTooLargeForTheRemoteIsSplitInHalvesUntilItFits() async throws {
        let executor = ScriptedExecutor { request in
            guard request.url.hasSuffix("/v1/batch") else { return Self.loneAnswer(request) }
            return try Self.subrequests(request).count > 2
                ? HTTPResponse(status: 413, headers: [:], body: Data()) : try Self.batchAnswer(request)
        }
        let batch = Self.batch(4, executor)
        let results = await Self.run(batch, (1...4).map { Self.request($0) })

        #expect(try executor.batches.map { try Self.subrequests($0).count } == [4, 2, 2])
        #expect(executor.alone.isEmpty)
        try Self.expectEachAnswered("batched", results)
        #expect(batch.refused == false)
    }

    @Test func aSubRequestTheRemoteWillNotBatchIsSentAgainAlone() async throws {
        let executor = ScriptedExecutor { request in
            guard request.url.hasSuffix("/v1/batch") else { return Self.loneAnswer(request) }
            let responses = try Self.subrequests(request).map { sub -> [String: Any] in
                let path = sub["path"] as? String ?? "?"
                guard path.hasSuffix("r2") else { return ["status": 200, "headers": [:], "body": ["batched": path]] }
                return [
                    "status": 400, "headers": [:],
                    "body": ["error": ["code": "not_batchable", "message": "no", "details": [:]]],
                ]
            }
            return HTTPResponse(
                status: 200,
                headers: [:],
                body: try JSONSerialization.data(withJSONObject: ["responses": responses])
            )
        }
        let batch = Self.batch(3, executor)
        let results = await Self.run(batch, (1...3).map { Self.request($0) })

        #expect(executor.alone.map(\.url) == [Self.base + "/v1/saved-recipes/r2"])
        #expect(try Self.json(try #require(try results[1]?.get())) == ["alone": "/v1/saved-recipes/r2"])
        #expect(try Self.json(try #require(try results[0]?.get())) == ["batched": "/v1/saved-recipes/r1"])
    }

    @Test func requestsThatGoAloneShareTheLimitersPermits() async throws {
        let inFlight = Mutex((now: 0, most: 0))
        let executor = ScriptedExecutor { request in
            inFlight.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            // A pause others could overlap, were the permits not shared. Not a run of
            // `Task.yield()`s: each waits behind every task queued on a busy pool.
            try await Task.sleep(for: .milliseconds(5))
            inFlight.withLock { $0.now -= 1 }
            return Self.loneAnswer(request)
        }
        let batch = RequestBatch(
            participants: 4,
            executor: executor,
            base: Self.base,
            path: "/v1/batch",
            limiter: RequestLimiter(permits: 1)
        )
        // Without credentials nothing can travel in a batch: all four go alone, one at a time.
        let anonymous = (1...4).map { index -> PreparedRequest in
            var request = Self.request(index)
            request.headers.removeAll { $0.0 == "Authorization" }
            return request
        }
        let results = await Self.run(batch, anonymous)

        #expect(executor.alone.count == 4 && executor.batches.isEmpty)
        #expect(results.allSatisfy { (try? $0?.get()) != nil })
        #expect(inFlight.withLock { $0.most } == 1)
    }

    @Test func aParticipantBusyWithSomethingElseHoldsTheOthersOnlyUntilTheLingerEnds() async throws {
        let executor = ScriptedExecutor { try Self.answer($0) }
        let batch = RequestBatch(
            participants: 3,
            executor: executor,
            base: Self.base,
            path: "/v1/batch",
            batching: .atOnce(linger: .milliseconds(10))
        )
        let busy = Gate()
        let results = await Self.finishing {
            await withTaskGroup(of: HTTPResponse?.self) { group in
                for index in [1, 3] {
                    group.addTask {
                        await batch.participate(index) {
                            try? await batch.participantExecutor(index).execute(
                                Self.request(index),
                                maxBodyBytes: 1 << 20
                            )
                        }
                    }
                }
                // The second participant is waiting for something else until the others are answered.
                var answered: [HTTPResponse] = []
                for await response in group {
                    if let response { answered.append(response) }
                }
                await busy.open()
                return answered
            }
        }
        await busy.wait()
        await batch.participate(2) {}

        #expect(results?.count == 2)
        #expect(try executor.batches.map { try Self.subrequests($0).count } == [2])
    }
}
