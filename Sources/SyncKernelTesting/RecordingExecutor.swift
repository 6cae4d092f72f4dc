import Foundation
import SyncKernel
import Synchronization

/// An `HTTPExecutor` that records every request and answers from a script, for plugin
/// tests that need no server. Unscripted requests get `fallback`.
public final class RecordingExecutor: HTTPExecutor {
    /// One scripted answer: a response, or no answer at all.
    public enum Answer: Sendable {
        case respond(HTTPResponse)
        case noAnswer(String)
    }

    private struct State {
        var requests: [PreparedRequest] = []
        var script: [Answer] = []
    }

    private let state = Mutex(State())
    private let fallback: HTTPResponse

    public init(fallback: HTTPResponse = HTTPResponse(status: 200, headers: [:], body: Data("{}".utf8))) {
        self.fallback = fallback
    }

    /// Queues answers for the next requests, in order.
    public func enqueue(_ answers: Answer...) {
        state.withLock { $0.script += answers }
    }

    /// Every request executed so far.
    public var requests: [PreparedRequest] { state.withLock { $0.requests } }

    public func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
        let answer = state.withLock { state -> Answer? in
            state.requests.append(request)
            return state.script.isEmpty ? nil : state.script.removeFirst()
        }
        switch answer {
        case .respond(let response): return response
        case .noAnswer(let reason): throw TransportFailure(reason: reason)
        case nil: return fallback
        }
    }
}
