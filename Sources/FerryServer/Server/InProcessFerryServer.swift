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
    private let environment: ServerEnvironment
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

    /// Closes the database; a server opened again on the same data directory finds what
    /// was committed.
    public func close() async {
        await environment.database.close()
    }

    /// Replaces the injected faults (as `PUT /admin/faults` does).
    public func setFaults(_ faults: FaultSettings) {
        environment.faults.update(faults)
    }
}
