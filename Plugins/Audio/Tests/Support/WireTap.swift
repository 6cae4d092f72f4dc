import Foundation
import SyncKernel
import Synchronization

/// The runtime's real HTTP client (AsyncHTTPClient, to the loopback server), with a record
/// of every request it put on the wire and, on demand, a stall: the answer for one file
/// stops after its first bytes and stays stopped, as a process killed mid-download would
/// leave it, until `release()`.
final class WireTap: HTTPExecutor {
    private let base = AsyncHTTPExecutor()
    private let state = Mutex(State())

    private struct State {
        var requests: [PreparedRequest] = []
        var stallPath: String?
        var stalled = false
        var released = false
        var onStall: [CheckedContinuation<Int, Never>] = []
        var stallBytes: Int?
        var onRelease: [CheckedContinuation<Void, Never>] = []
        var gather = 0
        var gatherTarget = 0
        var gathered: [CheckedContinuation<Void, Never>] = []
    }

    /// Every request, in the order it went.
    var requests: [PreparedRequest] { state.withLock { $0.requests } }

    /// The requests for `path` (matched on the end of the URL).
    func requests(for path: String) -> [PreparedRequest] {
        requests.filter { $0.url.hasSuffix(path) }
    }

    /// Stalls the next answer whose URL ends in `path` after half of its first piece of body.
    func stall(_ path: String) {
        state.withLock { $0.stallPath = path }
    }

    /// Holds the next `count` file answers until all of them have arrived whole, then hands
    /// them over at once, so that their downloads finish together.
    func gather(_ count: Int) {
        state.withLock {
            $0.gather = count
            $0.gatherTarget = count
        }
    }

    /// Waits until the stalled answer has handed over its first bytes; returns how many.
    func stalled() async -> Int {
        await withCheckedContinuation { continuation in
            let bytes = state.withLock { state -> Int? in
                if let bytes = state.stallBytes { return bytes }
                state.onStall.append(continuation)
                return nil
            }
            if let bytes { continuation.resume(returning: bytes) }
        }
    }

    /// Ends the stall (the stalled answer fails as a lost connection) and hands over any
    /// answers still gathered.
    func release() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.released = true
            state.gatherTarget = 0
            defer {
                state.onRelease = []
                state.gathered = []
            }
            return state.onRelease + state.gathered
        }
        for continuation in waiting { continuation.resume() }
    }

    func shutdown() async {
        release()
        try? await base.shutdown()
    }

    func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
        state.withLock { $0.requests.append(request) }
        return try await base.execute(request, maxBodyBytes: maxBodyBytes)
    }

    func stream(
        _ request: PreparedRequest,
        head: (Int, [String: String]) async throws -> Void,
        body: (Data) async throws -> Void
    ) async throws {
        let stalls = state.withLock { state -> Bool in
            state.requests.append(request)
            guard let path = state.stallPath, request.url.hasSuffix(path), !state.stalled else { return false }
            state.stalled = true
            return true
        }
        let gathers = !stalls && request.url.contains("/v1/audio/files/") && state.withLock { state in
            guard state.gather > 0 else { return false }
            state.gather -= 1
            return true
        }
        if gathers {
            var answer: (status: Int, headers: [String: String])?
            var chunks: [Data] = []
            try await base.stream(request, head: { answer = ($0, $1) }, body: { chunks.append($0) })
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let all = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                    state.gathered.append(continuation)
                    guard state.released || state.gathered.count == state.gatherTarget else { return nil }
                    defer { state.gathered = [] }
                    return state.gathered
                }
                for waiting in all ?? [] { waiting.resume() }
            }
            guard let answer else { return }
            try await head(answer.status, answer.headers)
            for chunk in chunks { try await body(chunk) }
            return
        }
        guard stalls else { return try await base.stream(request, head: head, body: body) }
        try await base.stream(request, head: head) { chunk in
            let first = chunk.prefix(max(1, chunk.count / 2))
            try await body(first)
            let waiting = state.withLock { state -> [CheckedContinuation<Int, Never>] in
                state.stallBytes = first.count
                defer { state.onStall = [] }
                return state.onStall
            }
            for continuation in waiting { continuation.resume(returning: first.count) }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.released { return true }
                    state.onRelease.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
            throw TransportFailure(reason: "GET \(request.url): the connection was lost (stalled by the test)")
        }
    }
}
