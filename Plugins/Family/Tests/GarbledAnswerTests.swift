import Foundation
import SyncKernel
import Testing

@testable import FamilyPlugin

/// A garbled answer to a family write (a proxy's page with a 200) is a failure that
/// passes: the write goes again with its key, never left to a person.
@Suite struct GarbledAnswerTests {
    struct ProxyPage: HTTPExecutor {
        func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
            HTTPResponse(status: 200, headers: ["content-type": "text/html"], body: Data("<html>502 Bad Gateway</html>".utf8))
        }
    }

    @Test func aGarbledAnswerToASuggestionGoesAgain() async throws {
        let sender = FamilySender(transport: HTTPTransport(baseURL: "https://ferry.test", executor: ProxyPage()), now: Date())
        let error = await #expect(throws: FerryError.self) {
            try await sender.send(.suggest, FamilyPayload(round: "r_demo_round", tmdbID: 949), entity: "r_demo_round/949")
        }
        #expect(error?.code == .remoteUnavailable)
    }
}
