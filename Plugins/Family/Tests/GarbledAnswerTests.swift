import Foundation
import SyncKernel
import Testing

@testable import FamilyPlugin

/// A garbled answer to a family write (a proxy's page with a 200) is a failure that
/// passes: the write goes again with its key, never left to a person.
@Suite struct GarbledAnswerTests {
    struct ProxyPage: HTTPExecutor {
        func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
            HTTPResponse(
                status: 200,
                headers: ["content-type": "text/html"],
                body: Data("<html>502 Bad Gateway</html>".utf8)
            )
        }
    }

    @Test func aGarbledAnswerToASuggestionGoesAgain() async throws {
        let sender = FamilySender(
            transport: HTTPTransport(baseURL: "https://ferry.test", executor: ProxyPage()),
            now: Date()
        )
        let error = await #expect(throws: FerryError.self) {
            try await sender.send(
                .suggest,
                FamilyPayload(round: "r_demo_round", tmdbID: 949),
                entity: "r_demo_round/949"
            )
        }
        #expect(error?.code == .remoteUnavailable)
    }
}

/// A pick or close on a round whose start left the queue without a round id (refused, and
/// the answer named no round) ends for a person with the reason, never waiting for itself.
@Suite struct OrphanRoundWriteTests {
    struct Unreachable: HTTPExecutor {
        func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
            Issue.record("nothing is sent for a round that was never created: \(request.url)")
            return HTTPResponse(status: 500, headers: [:], body: Data())
        }
    }

    @Test func aPickOnARoundThatWasNeverCreatedEndsWithTheReason() async throws {
        let sender = FamilySender(
            transport: HTTPTransport(baseURL: "https://ferry.test", executor: Unreachable()),
            now: Date()
        )
        let outcome = try await sender.send(.pick, FamilyPayload(round: "local-1", tmdbID: 603), entity: "local-1")
        guard case .needsPerson(let reason, _) = outcome else {
            Issue.record("a pick that would wait for itself ends for a person, not \(outcome)")
            return
        }
        #expect(reason.contains("local-1") && reason.contains("was never created") && reason.contains("pick"))

        let vote = try await sender.send(
            .vote,
            FamilyPayload(round: "local-1", tmdbID: 603, value: .up),
            entity: "local-1/603/self"
        )
        guard case .waitsFor(let entity, _) = vote else {
            Issue.record("a vote on a round still local waits for the round's start, not \(vote)")
            return
        }
        #expect(entity == "local-1")
    }
}
