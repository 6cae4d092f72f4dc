import FerryServerTesting
import Foundation
@testable import SyncKernel
import Testing

/// `sync.request_timeout` bounds the whole answer of an API request: a remote that sends
/// its head at once and then trickles the body cannot hold a send for longer.
@Suite("Transport: the request timeout")
struct RequestTimeoutTests {
    @Test func aBodyThatTricklesPastTheTimeoutIsNoAnswer() async throws {
        try await TricklingServer.with { url in
            let executor = AsyncHTTPExecutor()
            let request = PreparedRequest(method: "GET", url: url + "/slow", headers: [], body: nil, timeout: 0.5)
            let error = await #expect(throws: TransportFailure.self) {
                try await executor.execute(request, maxBodyBytes: 1 << 20)
            }
            #expect(error?.reason.contains("timed out") == true, "\(String(describing: error))")
            try await executor.shutdown()
        }
    }
}
