import Foundation
import Synchronization
import Testing

@testable import SyncKernel

/// `.inTurn`: the operations of a batch run one at a time, in queue order, whatever order
/// their tasks start in, so that a simulation's seed replays the same. At once, their
/// requests to a third party met the network in the order the scheduler chose, and a fault
/// armed for "the next request" hit one or another.
@Suite("Request batch: operations in turn")
struct BatchTurnsTests {
    typealias Batch = RequestBatchTests

    /// What the operations did, in the order they did it.
    final class Steps: Sendable {
        private let list = Mutex<[String]>([])
        var all: [String] { list.withLock { $0 } }
        func note(_ step: String) { list.withLock { $0.append(step) } }
    }

    /// A request of participant `index` to a third party (a TMDB lookup): it never travels
    /// in the batch.
    static func thirdParty(_ index: Int) -> PreparedRequest {
        PreparedRequest(method: "GET", url: "https://third.test/lookup/\(index)", headers: [], body: nil, timeout: 30)
    }

    /// Yields to the scheduler until `done`, or at most `limit` times: a version that
    /// never gets there ends (and fails its expectations) instead of spinning for good.
    static func yield(until done: () -> Bool, limit: Int = 10_000) async {
        var tries = 0
        while !done(), tries < limit {
            await Task.yield()
            tries += 1
        }
    }

    /// A provider whose token comes only once `callers` have asked for one at the same
    /// time (or, failing that, after a bounded wait): whether they met shows.
    final class MeetingCredentials: CredentialProvider {
        private let asking = Mutex(0)
        private let most = Mutex(0)
        let callers: Int

        init(callers: Int) { self.callers = callers }

        /// The most callers that asked at once.
        var met: Int { most.withLock { $0 } }

        func accessToken() async -> String? {
            let now = asking.withLock { $0 += 1; return $0 }
            most.withLock { $0 = max($0, now) }
            await BatchTurnsTests.yield(until: { self.met >= self.callers })
            asking.withLock { $0 -= 1 }
            return "t1"
        }

        func refreshAccessToken(rejected: String) async throws -> String? { nil }
    }

    @Test func eachOperationRunsAloneInQueueOrderAndTheAnswersComeBackInThatOrderToo() async throws {
        let executor = Batch.ScriptedExecutor { request in
            request.url.hasPrefix("https://third.test")
                ? HTTPResponse(status: 200, headers: [:], body: Data()) : try Batch.answer(request)
        }
        let batch = RequestBatch(
            participants: 3,
            executor: executor,
            base: Batch.base,
            path: "/v1/batch",
            batching: .inTurn
        )
        let steps = Steps()
        _ = await Batch.finishing {
            await withTaskGroup(of: Void.self) { group in
                // The last operation's task starts first, and the first one dawdles.
                for participant in [2, 1, 0] {
                    group.addTask {
                        await batch.participate(participant) {
                            steps.note("start \(participant)")
                            // Long enough for the others to overtake it, were they let.
                            if participant == 0 { try? await Task.sleep(for: .milliseconds(50)) }
                            let executor = batch.participantExecutor(participant)
                            _ = try? await executor.execute(Self.thirdParty(participant), maxBodyBytes: 1 << 20)
                            _ = try? await executor.execute(Batch.request(participant + 1), maxBodyBytes: 1 << 20)
                            steps.note("answered \(participant)")
                        }
                    }
                }
            }
        }
        #expect(
            steps.all == ["start 0", "start 1", "start 2", "answered 0", "answered 1", "answered 2"]
        )
        #expect(executor.alone.map(\.url) == (0..<3).map { Self.thirdParty($0).url })
        #expect(executor.batches.count == 1)
    }

    @Test func anOperationThatEndsWithoutSendingPassesTheTurnOn() async throws {
        let executor = Batch.ScriptedExecutor { try Batch.answer($0) }
        let batch = RequestBatch(participants: 3, executor: executor, base: Batch.base, path: "/v1/batch", batching: .inTurn)
        let results = await Batch.run(batch, [Batch.request(1), nil, Batch.request(3)])
        #expect(executor.batches.count == 1)
        #expect(results[1] == nil)
        #expect(try Batch.json(try #require(try results[2]?.get())) == ["batched": "/v1/saved-recipes/r3"])
    }

    /// Credential work goes aside, all together: a sign-in each of three operations needs
    /// is asked for at the same moment, as when a runner sends concurrently, so a provider
    /// that does not share one shows. Each work waits here until the three have started;
    /// had they gone one at a time, the first would wait for good (the guard ends it).
    @Test func theOperationsCredentialWorkRunsTogether() async {
        let turns = BatchTurns(participants: 3)
        let steps = Steps()
        let finished = await Batch.finishing {
            await withTaskGroup(of: Void.self) { group in
                for who in [2, 0, 1] {
                    group.addTask {
                        await turns.take(who)
                        await turns.aside(who) {
                            steps.note("aside")
                            await Self.yield(until: { steps.all.count >= 3 })
                        }
                        steps.note("after \(who)")
                        turns.release(who)
                    }
                }
            }
            return true
        }
        #expect(finished == true)
        #expect(steps.all == ["aside", "aside", "aside", "after 0", "after 1", "after 2"])
    }

    /// Credential work starts only once no operation can run, and nobody takes the turn
    /// before all of it has returned: what runs beside it is only the others' credential
    /// work, never their own steps, so its order cannot depend on the scheduler.
    @Test func credentialWorkWaitsForTheOperationsThatCanRunAndHoldsThemUntilItReturns() async {
        let turns = BatchTurns(participants: 2)
        let steps = Steps()
        _ = await Batch.finishing {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    await turns.take(0)
                    await turns.aside(0) {
                        steps.note("aside 0")
                        // Participant 1 is back from aside and asks for the turn (or,
                        // were it let, has taken it). A count of scheduler turns instead
                        // took over 20 s in a full test run on two cores.
                        await Self.yield(until: { turns.waiting.contains(1) || steps.all.contains("after 1") })
                        steps.note("back 0")
                    }
                    steps.note("after 0")
                    turns.release(0)
                }
                group.addTask {
                    await turns.take(1)
                    steps.note("turn 1")
                    await turns.aside(1) { steps.note("aside 1") }
                    steps.note("after 1")
                    turns.release(1)
                }
            }
        }
        let all = steps.all
        #expect(all.first == "turn 1")
        #expect(Set(all.dropFirst().prefix(3)) == ["aside 0", "back 0", "aside 1"])
        #expect(all.suffix(2) == ["after 0", "after 1"])
    }

    /// The wiring: an operation's transport in a batch (`HTTPTransport.with(executor:turn:)`
    /// with its `participantTurn`) puts its credential work aside, so two sends that each
    /// ask for a token ask at the same moment. Were the token asked for in the operation's
    /// turn, the first would wait for the second, which could not start, and only one
    /// caller would ever be seen.
    @Test func aBatchsTransportsAskForTheirTokensTogether() async {
        let executor = Batch.ScriptedExecutor { try Batch.answer($0) }
        let batch = RequestBatch(participants: 2, executor: executor, base: Batch.base, path: "/v1/batch", batching: .inTurn)
        let credentials = MeetingCredentials(callers: 2)
        let transport = HTTPTransport(baseURL: Batch.base, credentials: credentials)
        let answered = await Batch.finishing {
            await withTaskGroup(of: Bool.self) { group in
                for participant in [1, 0] {
                    group.addTask {
                        await batch.participate(participant) {
                            let own = transport.with(
                                executor: batch.participantExecutor(participant),
                                turn: batch.participantTurn(participant)
                            )
                            let request = HTTPRequest("PUT", "/v1/saved-recipes/r\(participant + 1)")
                            return (try? await own.send(request)) != nil
                        }
                    }
                }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }
        #expect(credentials.met == 2)
        #expect(answered == 2)
        #expect(executor.batches.count == 1)
    }
}
