import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// A request that may wait out a 429 goes again after the answer's `Retry-After`, on the
/// transport's clock; a longer wait, or one wait too many, is thrown as the 429 it was.
@Suite("Transport: waiting out a rate limit")
struct RateLimitWaitTests {
    static func tooMany(retryAfter: String?) -> RecordingExecutor.Answer {
        .respond(HTTPResponse(status: 429, headers: retryAfter.map { ["retry-after": $0] } ?? [:], body: Data()))
    }

    static func request() -> HTTPRequest {
        var request = HTTPRequest("GET", "/v1/things", authenticated: false)
        request.rateLimitWait = RateLimitWait(times: 2, longest: 10)
        return request
    }

    @Test func aShortRetryAfterIsWaitedOutOnTheClock() async throws {
        let executor = RecordingExecutor()
        executor.enqueue(Self.tooMany(retryAfter: "3"), Self.tooMany(retryAfter: nil))
        let clock = TestClock()
        let transport = HTTPTransport(baseURL: "https://remote.test", executor: executor, clock: clock)
        let sent = Task { try await transport.send(Self.request()) }
        while clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(executor.requests.count == 1)
        clock.advance(by: 3)
        while executor.requests.count < 2 || clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
        clock.advance(by: 1)  // no Retry-After: one second
        #expect(try await sent.value.status == 200)
        #expect(executor.requests.count == 3)
    }

    @Test func aLongRetryAfterOrOneTooManyIsThrown() async throws {
        let executor = RecordingExecutor()
        executor.enqueue(Self.tooMany(retryAfter: "60"))
        let transport = HTTPTransport(baseURL: "https://remote.test", executor: executor, clock: TestClock())
        let long = await #expect(throws: RemoteFailure.self) { try await transport.send(Self.request()) }
        #expect(long?.status == 429 && executor.requests.count == 1)

        var once = Self.request()
        once.rateLimitWait = nil
        executor.enqueue(Self.tooMany(retryAfter: "1"))
        await #expect(throws: RemoteFailure.self) { try await transport.send(once) }
        #expect(executor.requests.count == 2, "without a RateLimitWait a 429 is thrown at once")
    }
}
