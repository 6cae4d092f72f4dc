import Foundation
@testable import SyncKernel
import Testing

@Suite("Retry decisions and failure classes")
struct RetryDecisionTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = RetryPolicy(baseDelay: 2, multiplier: 2, maxDelay: 60, maxAttempts: 5, jitter: 0)

    @Test func backoffDoublesUpToTheCap() {
        #expect((1...7).map { policy.delay(afterAttempts: $0) } == [2, 4, 8, 16, 32, 60, 60])
    }

    @Test func jitterStaysWithinItsShare() {
        let jittery = RetryPolicy(baseDelay: 10, multiplier: 2, maxDelay: 1000, maxAttempts: 5, jitter: 0.2)
        #expect(jittery.jitteredDelay(afterAttempts: 1, unit: 0) == 8)
        #expect(jittery.jitteredDelay(afterAttempts: 1, unit: 0.5) == 10)
        #expect(jittery.jitteredDelay(afterAttempts: 1, unit: 0.9999) < 12.001)
    }

    @Test func transientFailuresBackOffAndSpendAnAttempt() {
        let action = RetryDecision.decide(
            .transient(reason: "503", retryAfter: nil),
            attempts: 2,
            policy: policy,
            now: now,
            unit: 0.5
        )
        #expect(action == .retry(at: now.addingTimeInterval(8), attempts: 3, reason: "503"))
    }

    @Test func retryAfterLongerThanTheBackoffWins() {
        let action = RetryDecision.decide(
            .transient(reason: "429", retryAfter: 120),
            attempts: 0,
            policy: policy,
            now: now,
            unit: 0.5
        )
        #expect(action == .retry(at: now.addingTimeInterval(120), attempts: 1, reason: "429"))
    }

    @Test func theLastAttemptMakesADeadLetter() {
        let action = RetryDecision.decide(
            .transient(reason: "500", retryAfter: nil),
            attempts: 4,
            policy: policy,
            now: now,
            unit: 0.5
        )
        #expect(action == .deadLetter(reason: "gave up after 5 attempts: 500", attempts: 5))
    }

    @Test func offlineSpendsNoAttemptAndTheFirstUnansweredRequestGoesAgainAtOnce() {
        let action = RetryDecision.decide(.offline(reason: "refused"), attempts: 3, policy: policy, now: now, unit: 0.5)
        #expect(action == .waitForConnectivity(recheckAt: now, reason: "refused"))
    }

    @Test func requestsUnansweredInARowBackOffFromHalfASecondToFifteen() {
        let delays = (1...8).map { unanswered in
            RetryDecision.decide(.offline(reason: "reset"), attempts: 0, policy: policy, now: now, unit: 0, unanswered: unanswered)
        }
        let expected: [TimeInterval] = [0, 0.5, 1, 2, 4, 8, 15, 15]
        #expect(delays == expected.map { .waitForConnectivity(recheckAt: now.addingTimeInterval($0), reason: "reset") })
    }

    @Test func unauthorizedHoldsForLogin() {
        #expect(
            RetryDecision.decide(.unauthorized(reason: "401"), attempts: 0, policy: policy, now: now, unit: 0)
                == .holdForLogin(reason: "401")
        )
    }

    @Test(arguments: [
        (401, "unauthorized"), (408, "transient"), (429, "transient"), (500, "transient"), (503, "transient"),
        (409, "conflict"), (412, "conflict"), (400, "rejected"), (404, "rejected"), (422, "rejected"),
        (403, "rejected"),
    ])
    func statusesAreClassifiedInOnePlace(status: Int, expected: String) {
        let failure = FailureClass.classify(RemoteFailure(status: status), now: now)
        let name =
            switch failure {
            case .offline: "offline"
            case .transient: "transient"
            case .unauthorized: "unauthorized"
            case .conflict: "conflict"
            case .rejected: "rejected"
            case .waitsFor: "waits for"
            case .misconfigured: "misconfigured"
            }
        #expect(name == expected)
    }

    @Test func aConflictThatSaysWhenToComeBackIsBusyNotADisagreement() {
        let busy = FailureClass.classify(RemoteFailure(status: 409, headers: ["retry-after": "1"]), now: now)
        #expect(busy == .transient(reason: "HTTP 409", retryAfter: 1))
        let inFlight = RemoteFailure(
            status: 409,
            body: Data(#"{"error":{"code":"idempotency_key_in_flight","message":"still running","details":{}}}"#.utf8)
        )
        #expect(FailureClass.classify(inFlight, now: now) == .transient(reason: inFlight.reason, retryAfter: nil))
    }

    @Test func anOperationThatWaitsForAnotherEntitySpendsNothing() throws {
        let failure = try #require(SendOutcome.waitsFor(entity: "local-1", reason: "waits").failure?.0)
        #expect(failure == .waitsFor(entity: "local-1", reason: "waits"))
        let action = RetryDecision.decide(failure, attempts: 3, policy: policy, now: now, unit: 0)
        #expect(action == .waitForEntity(entity: "local-1", reason: "waits"))
    }

    @Test func retryAfterAcceptsSecondsAndHTTPDates() {
        let seconds = FailureClass.classify(RemoteFailure(status: 429, headers: ["retry-after": "7"]), now: now)
        #expect(seconds == .transient(reason: "HTTP 429", retryAfter: 7))
        let date = FailureClass.classify(
            RemoteFailure(status: 503, headers: ["retry-after": "Fri, 15 Jan 2027 08:00:30 GMT"]),
            now: Date(timeIntervalSince1970: 1_800_000_000)
        )
        guard case .transient(_, let wait?) = date else {
            Issue.record("expected a wait")
            return
        }
        #expect(wait > 0)
    }

    @Test func transportFailuresAreOfflineAndUndecodableAnswersGoAgain() {
        #expect(
            FailureClass.classify(TransportFailure(reason: "connection refused"), now: now)
                == .offline(reason: "connection refused")
        )
        let decoding = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "bad"))
        guard case .transient = FailureClass.classify(decoding, now: now) else {
            Issue.record("expected transient")
            return
        }
    }

    @Test func theRemotesReasonIsKept() {
        let body = Data(#"{"error":{"code":"bad_title","message":"title is empty","details":{}}}"#.utf8)
        #expect(RemoteFailure(status: 400, body: body).reason == "400 bad_title: title is empty")
        let stop = Data(#"{"error": {"code": "injected_fault", "message": "Internal error (injected fault)."}}"#.utf8)
        #expect(
            RemoteFailure(status: 500, body: stop).reason == "500 injected_fault: Internal error (injected fault)",
            "a clause that a message goes on after ends without a full stop"
        )
    }
}
