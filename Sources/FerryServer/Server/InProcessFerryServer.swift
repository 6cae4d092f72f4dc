import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The reference server without a socket: each request goes straight to its router, in
/// this process, through the same middleware, handlers and database as over HTTP.
///
/// For a simulation that must be deterministic and fast: no event loop, no port, no
/// connection to lose by accident. A restart is ``close()`` and ``open(_:)`` again on
/// the same `dataDirectory`.
///
/// ```swift
/// let server = try await InProcessFerryServer.open(configuration)
/// let answer = try await server.respond(method: "GET", path: "/v1/health")
/// await server.close()
/// ```
public final class InProcessFerryServer: Sendable {
    let environment: ServerEnvironment
    private let responder: RouterResponder<FerryRequestContext>

    private init(environment: ServerEnvironment, responder: RouterResponder<FerryRequestContext>) {
        self.environment = environment
        self.responder = responder
    }

    /// Opens the database (and seeds it when the configuration asks); nothing listens.
    public static func open(_ configuration: FerryServerConfiguration) async throws -> InProcessFerryServer {
        let metrics = ServerMetrics()
        let database = try await ServerDatabase.open(configuration, metrics: metrics)
        let environment = ServerEnvironment(configuration: configuration, database: database, metrics: metrics)
        do {
            if configuration.seedDemo { try await DemoSeed.load(into: environment) }
        } catch {
            await database.close()
            throw error
        }
        let responder = ServerRoutes.router(environment).buildResponder()
        environment.subrequests.install(responder)
        return InProcessFerryServer(environment: environment, responder: responder)
    }

    /// The answer to one request, as the server would write it on the wire: the status,
    /// the headers (lower-cased names) and the body. `path` holds the query, if any.
    public func respond(
        method: String,
        path: String,
        headers: [(String, String)] = [],
        body: Data? = nil
    ) async throws -> (status: Int, headers: [String: String], body: Data) {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        let head = HTTPRequest(method: HTTPRequest.Method(method) ?? .get, scheme: nil, authority: nil, path: path, headerFields: fields)
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer(data: body ?? Data())))
        let context = FerryRequestContext(inProcessWith: environment.logger)
        let response: APIResponse
        do {
            response = try await APIResponse(responder.respond(to: request, context: context))
        } catch let error as APIError {
            response = .error(error)
        }
        var answerHeaders: [String: String] = [:]
        for (name, value) in response.headers { answerHeaders[name.lowercased()] = value }
        return (Int(response.status.code), answerHeaders, response.body)
    }

    /// The answer to one request during which the server dies, for simulations: where it is
    /// about to record an idempotency answer (after the request's effect, inside the
    /// transaction that must hold both), it throws ``ServerDied`` and nothing uncommitted
    /// stays. Close the server and open it again on its data, as after a crash. A request
    /// that records no answer (a read) is answered as ``respond(method:path:headers:body:)`` does.
    public func respond(
        dyingBeforeRecord: Bool,
        method: String,
        path: String,
        headers: [(String, String)] = [],
        body: Data? = nil
    ) async throws -> (status: Int, headers: [String: String], body: Data) {
        guard dyingBeforeRecord else { return try await respond(method: method, path: path, headers: headers, body: body) }
        let crash = environment.crashBeforeRecord
        crash.arm()
        let answer: (status: Int, headers: [String: String], body: Data)
        do {
            answer = try await respond(method: method, path: path, headers: headers, body: body)
        } catch {
            _ = crash.disarm()
            throw error
        }
        if crash.disarm() { throw ServerDied() }
        return answer
    }

    /// The last change sequence of the server's entities: it moves with every change that
    /// commits, for simulations that check what a request left behind.
    public func changeSequence() async throws -> Int {
        try await environment.database.read { db in try Entities.highestSequence(db) }
    }

    /// Closes the database; a server opened again on the same data directory finds what
    /// was committed.
    public func close() async {
        await environment.close()
    }

    /// Replaces the injected faults (as `PUT /admin/faults` does).
    public func setFaults(_ faults: FaultSettings) {
        environment.faults.update(faults)
    }
}
