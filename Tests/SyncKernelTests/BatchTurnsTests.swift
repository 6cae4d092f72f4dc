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
                            while steps.all.count < 3 { await Task.yield() }
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
                        // Participant 1's work has run: give it some turns of the
                        // scheduler to overtake, were it let. (Waiting on what it did,
                        // not on a count of turns alone, keeps this quick on a busy pool.)
                        while !steps.all.contains("aside 1") { await Task.yield() }
                        for _ in 0..<50 { await Task.yield() }
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
}
