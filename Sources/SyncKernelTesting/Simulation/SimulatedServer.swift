import Foundation
import SyncKernel

/// A server a simulation's devices talk to without sockets.
public protocol SimulatedServer: Sendable {
    /// The answer to one request; `path` holds the query. Throws only when the server
    /// itself failed (a simulation counts that as no answer).
    func respond(method: String, path: String, headers: [(String, String)], body: Data?) async throws -> HTTPResponse
    /// The answer to one request during which the server dies where it is about to record
    /// its answer for an `Idempotency-Key` (after the effect, inside the transaction that
    /// must hold both); nil when it died there: the caller starts it again on its data.
    func respondDying(method: String, path: String, headers: [(String, String)], body: Data?) async throws -> HTTPResponse?
    /// A number that moves whenever a change of the server's data commits.
    func changeSequence() async throws -> Int
    /// Stops the server; what it committed stays in its data.
    func stop() async
}

extension SimulatedServer {
    /// A server that cannot die inside a write answers as `respond` does.
    public func respondDying(method: String, path: String, headers: [(String, String)], body: Data?) async throws -> HTTPResponse? {
        try await respond(method: method, path: path, headers: headers, body: body)
    }

    /// A server without a change sequence: 0.
    public func changeSequence() async throws -> Int { 0 }
}

/// Starts the simulation's server: `fresh` the first time, then again on the same
/// `directory` after a restart.
public typealias SimulatedServerStarter =
    @Sendable (_ directory: String, _ clock: WorldClock, _ fresh: Bool) async throws -> any SimulatedServer
