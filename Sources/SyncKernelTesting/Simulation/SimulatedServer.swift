import Foundation
import SyncKernel

/// A server a simulation's devices talk to without sockets.
public protocol SimulatedServer: Sendable {
    /// The answer to one request; `path` holds the query. Throws only when the server
    /// itself failed (a simulation counts that as no answer).
    func respond(method: String, path: String, headers: [(String, String)], body: Data?) async throws -> HTTPResponse
    /// Stops the server; what it committed stays in its data.
    func stop() async
}

/// Starts the simulation's server: `fresh` the first time, then again on the same
/// `directory` after a restart.
public typealias SimulatedServerStarter =
    @Sendable (_ directory: String, _ clock: WorldClock, _ fresh: Bool) async throws -> any SimulatedServer
