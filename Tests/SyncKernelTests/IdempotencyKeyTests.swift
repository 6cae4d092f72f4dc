import Foundation
import SyncKernelTesting
import Testing

@testable import SyncKernel

/// The kernel sets `Idempotency-Key`: a plugin's writes during a send carry its
/// operation's id, and nothing else does.
@Suite("Transport: idempotency keys")
struct IdempotencyKeyTests {
    static let id = UUID(uuidString: "01A3185C-5000-7000-8000-000000000001")!

    static func operation() -> QueuedOperation {
        QueuedOperation(
            sequence: 1, id: id, plugin: "items", kind: "put", entity: "a", payload: Data("{}".utf8), base: nil,
            createdAt: Date(), attempts: 0, nextAttemptAt: Date(), state: .inFlight, dispatched: true, force: false,
            requiresUnmetered: false, account: nil
        )
    }

    @Test func theWritesOfASendCarryTheOperationsIdThenNumberedKeysAndNothingElseDoes() async throws {
        let executor = RecordingExecutor()
        let transport = HTTPTransport(baseURL: "http://remote.test", executor: executor)
        let sending = transport.sending(Self.operation())
        _ = try await sending.send(HTTPRequest("PUT", "/v1/recipes/a"))
        _ = try await sending.send(HTTPRequest("GET", "/v1/recipes/a"))
        _ = try await sending.send(HTTPRequest("PUT", "/v1/recipes/a/photo"))
        _ = try await sending.send(HTTPRequest("POST", "https://api.themoviedb.org/3/thing", authenticated: false))
        _ = try await transport.send(HTTPRequest("PUT", "/v1/recipes/b"))
        let keys = executor.requests.map { $0.header("Idempotency-Key") }
        let base = Self.id.uuidString.lowercased()
        #expect(keys == [base, nil, base + ".2", nil, nil])
    }

    @Test func aWriteSentAgainAfterARenewedTokenKeepsItsKey() async throws {
        let executor = RecordingExecutor()
        executor.enqueue(.respond(HTTPResponse(status: 401, headers: [:], body: Data())))
        let credentials = StaticCredentials(token: "old", refreshesTo: "new")
        let transport = HTTPTransport(baseURL: "http://remote.test", credentials: credentials, executor: executor)
        _ = try await transport.sending(Self.operation()).send(HTTPRequest("PUT", "/v1/recipes/a"))
        let keys = executor.requests.map { $0.header("Idempotency-Key") }
        #expect(keys == [Self.id.uuidString.lowercased(), Self.id.uuidString.lowercased()])
    }

    @Test func theRunnersCredentialsNeverGoToAThirdPartysURL() async throws {
        let executor = RecordingExecutor()
        let credentials = StaticCredentials(token: "secret")
        credentials.setSessionHeaders([("X-Acting-As-Member", "mem_kid")])
        let transport = HTTPTransport(baseURL: "http://remote.test/api", credentials: credentials, executor: executor)
        _ = try await transport.send(HTTPRequest("GET", "https://api.themoviedb.org/3/movie/1"))
        _ = try await transport.send(HTTPRequest("GET", "http://remote.test/api/v1/files/a"))
        _ = try await transport.send(HTTPRequest("GET", "/v1/recipes"))
        let sent = executor.requests.map { ($0.header("Authorization"), $0.header("X-Acting-As-Member")) }
        #expect(sent.map(\.0) == [nil, "Bearer secret", "Bearer secret"])
        #expect(sent.map(\.1) == [nil, "mem_kid", "mem_kid"])
    }
}
