import Foundation
import SyncKernel
import Synchronization

/// One device's way to the server: hands each request to the simulated server (or to the
/// host its URL names, for a host of `otherHosts`), unless the device is offline or a fault
/// armed for its next request says otherwise. Each process of the device sends through a
/// link of its own (`openLink`): a process that died reaches nothing any more.
final class SimulatedNetwork: Sendable {
    private struct State {
        var online = true
        var metered = false
        var faults: [SimulationEvent.RequestFault] = []
        /// The links of the device's live processes.
        var alive: Set<Int> = []
        /// How many links were opened.
        var links = 0
        var sent: [SentRequest] = []
        var lastCut: Date?
        var signIns = SignIns()
        /// The device's `sync.max_answer`, in bytes: no answer larger may reach it. The
        /// device sets it from its configuration before its first request.
        var answerCap = 32 << 20
        /// Answers past the cap that reached the device, not yet taken.
        var pastCap: [String] = []
        /// How many answers past the cap (`oversize-answer`) the device refused to read.
        var refusedPastCap = 0
        /// The device's requests waiting for their answers now, and the most there were.
        var inFlight = 0
        var mostInFlight = 0
    }

    /// The device's sign-ins to the server, for the `signed-in-twice` invariant: one
    /// sign-in a session, whatever number of sends found none (Kernel v2 2).
    private struct SignIns {
        /// How many are waiting for their answer.
        var inFlight = 0
        /// Whether one was answered with a session that nothing has ended since (no 401 or
        /// 403 from the server, no refused refresh, no new life).
        var answered = false
        /// Whether a person's sign-in runs now (`ferry auth login`): it is not the
        /// device's own, and may replace a session on purpose.
        var byPerson = false
        /// What broke the invariant, not yet taken.
        var twice: [String] = []

        /// Notes a sign-in leaving the device.
        mutating func leaving() {
            guard !byPerson else { return }
            if inFlight > 0 {
                twice.append("a sign-in left while another of the device's own waited for its answer")
            } else if answered {
                twice.append("a sign-in left though the device's last one was answered and nothing ended that session")
            }
            inFlight += 1
        }

        /// Notes an answer whose status reached the device but whose body could not be read
        /// (cut short, junk): a refusal ends the session as any does; a session in it did not
        /// reach the device.
        mutating func answerUnread(_ status: Int, path: String) {
            answer(status, path: path, toSignIn: false)
        }

        /// Notes an answer of the server that reached the device.
        mutating func answer(_ status: Int, path: String, toSignIn: Bool) {
            let ok = (200..<300).contains(status)
            if [401, 403].contains(status) || (path.hasPrefix(SimulatedNetwork.refreshPath) && !ok) {
                answered = false
            } else if toSignIn, ok {
                answered = true
            }
        }
    }

    private let state = Mutex(State())
    private let server: @Sendable () -> (any SimulatedServer)?
    private let otherHosts: [String: any SimulatedServer]
    private let restartServer: @Sendable () async throws -> Void
    private let ledger: ApplyLedger
    private let clock: WorldClock
    /// Called with the request's link when a fault kills the process that sent it in the
    /// middle of the request; never returns while the simulation runs.
    private let crashHandler = Mutex<(@Sendable (_ link: Int) async -> Void)?>(nil)
    /// Called before each request (the device between two requests), with the request.
    private let requestHandler = Mutex<(@Sendable (PreparedRequest) async -> Void)?>(nil)

    init(
        server: @escaping @Sendable () -> (any SimulatedServer)?,
        otherHosts: [String: any SimulatedServer],
        restartServer: @escaping @Sendable () async throws -> Void,
        ledger: ApplyLedger,
        clock: WorldClock
    ) {
        self.clock = clock
        self.server = server
        self.otherHosts = otherHosts
        self.restartServer = restartServer
        self.ledger = ledger
    }

    /// What a fault that kills a process of the device calls.
    func onCrash(_ handler: @escaping @Sendable (_ link: Int) async -> Void) { crashHandler.withLock { $0 = handler } }

    private func crash(_ link: Int) async { await crashHandler.withLock { $0 }?(link) }

    /// What to call before each request.
    func onRequest(_ handler: @escaping @Sendable (PreparedRequest) async -> Void) {
        requestHandler.withLock { $0 = handler }
    }

    var isOnline: Bool {
        get { state.withLock { $0.online } }
        set { state.withLock { $0.online = newValue } }
    }

    /// Whether the link is metered (a phone's data plan), online or not.
    var isMetered: Bool {
        get { state.withLock { $0.metered } }
        set { state.withLock { $0.metered = newValue } }
    }

    /// The last time, in the world's, that the device's way to the server was cut: a
    /// request of it to the server got no answer (the device did not die of it), or its
    /// link came back (`cut()`).
    var lastCut: Date? { state.withLock { $0.lastCut } }

    /// Notes that the device's way to the server is cut now.
    func cut() {
        let now = clock.now
        state.withLock { $0.lastCut = now }
    }

    /// Every request a life of the device tried to send, in order.
    var sent: [SentRequest] { state.withLock { $0.sent } }

    /// Arms `fault` for the next request (`refuse-token` for the next two that carry a token).
    func arm(_ fault: SimulationEvent.RequestFault) {
        state.withLock { $0.faults += fault == .refuseToken ? [fault, fault] : [fault] }
    }

    /// Whether `fault` is armed for a request to come.
    func isArmed(_ fault: SimulationEvent.RequestFault) -> Bool { state.withLock { $0.faults.contains(fault) } }

    /// Forgets every armed fault.
    func disarm() { state.withLock { $0.faults.removeAll() } }

    /// Ends the process of `link`: its requests reach nothing from now on.
    func end(_ link: Int) { state.withLock { _ = $0.alive.remove(link) } }

    /// Ends every process of the device: it died, or it was switched off.
    func endAll() { state.withLock { $0.alive.removeAll() } }

    /// A link for a process that starts on the device: its number, for `executor(of:)`.
    /// A new life of the device (`newLife`) is from now on its only process; another
    /// process (a command run beside the app) joins those alive, and shares their sign-ins.
    func openLink(newLife: Bool) -> Int {
        state.withLock { state in
            state.links += 1
            if newLife {
                state.alive = []
                state.signIns = SignIns()
            }
            state.alive.insert(state.links)
            return state.links
        }
    }

    /// The executor of the process on `link`.
    func executor(of link: Int) -> some HTTPExecutor { Link(network: self, link: link) }

    /// Runs `body`, a person's sign-in on the device: its request is not the device's own.
    func asPerson<T>(_ body: () async throws -> T) async rethrows -> T {
        state.withLock { $0.signIns.byPerson = true }
        defer { state.withLock { $0.signIns.byPerson = false } }
        return try await body()
    }

    /// The sign-ins of the device's own that broke `signed-in-twice` since the last call.
    func takeSignInsTwice() -> [String] {
        state.withLock { state in
            defer { state.signIns.twice = [] }
            return state.signIns.twice
        }
    }

    static let signInPath = "/v1/auth/login"
    static let refreshPath = "/v1/auth/refresh"

    /// Holds a sign-in on the link for some turns of the scheduler, as a real network holds
    /// it for a round trip: the other sends that need one at that moment (their credential
    /// work aside together, `BatchTurns.aside`) then ask while it is on its way, and a
    /// provider that does not share one sign-in among them sends a second (Kernel v2 2).
    /// Turns are not time: a send whose call comes after them asks after the sign-in came
    /// back. When it succeeded, that changes nothing (the send finds the session); when it
    /// failed (a fault), the late send asks again, where the others shared the failure. On
    /// the run's one thread (`RunThread`) the turns are the other tasks' jobs in the order
    /// they were queued, so which sends come late is the same each time.
    private static func linger() async {
        for _ in 0..<10 { await Task.yield() }
    }

    private struct Link: HTTPExecutor {
        let network: SimulatedNetwork
        let link: Int

        func execute(_ request: PreparedRequest, maxBodyBytes: Int) async throws -> HTTPResponse {
            try await network.execute(request, maxBodyBytes: maxBodyBytes, link: link)
        }
    }

    private func execute(_ request: PreparedRequest, maxBodyBytes: Int, link: Int) async throws -> HTTPResponse {
        state.withLock { state in
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        if state.withLock({ $0.alive.contains(link) }) { await requestHandler.withLock { $0 }?(request) }
        let (host, path) = (Self.host(of: request.url), Self.path(of: request.url))
        let other = host.flatMap { otherHosts[$0] }
        let signIn = other == nil && request.method == "POST" && path == Self.signInPath
        if signIn { state.withLock { $0.signIns.leaving() } }
        defer { if signIn { state.withLock { $0.signIns.inFlight -= 1 } } }
        if signIn { await Self.linger() }
        let now = clock.now
        let fault = try state.withLock { state -> SimulationEvent.RequestFault? in
            guard state.alive.contains(link) else { throw TransportFailure(reason: "the device died") }
            let way: SimulationEvent.NetworkChange = !state.online ? .offline : state.metered ? .metered : .unmetered
            state.sent.append(SentRequest(method: request.method, host: host, path: path, link: way))
            guard state.online else {
                if other == nil { state.lastCut = now }
                throw TransportFailure(reason: "the device is offline")
            }
            guard other != nil || path.hasPrefix(Self.gatewayPrefix) else {
                throw TransportFailure(reason: "the server's gateway passes only \(Self.gatewayPrefix) paths")
            }
            guard let next = state.faults.first else { return nil }
            if next == .refuseToken, other != nil || request.header("Authorization") == nil { return nil }
            if next == .oversizeAnswer, other != nil || !Self.isFeedPage(request, path: path) { return nil }
            return state.faults.removeFirst()
        }
        switch fault {
        case .dropRequest: throw noAnswer("the request was lost", fromServer: other == nil)
        case .crashBeforeSend:
            await crash(link)
            throw TransportFailure(reason: "the device died")
        case .serverError, .rateLimited:
            return HTTPResponse(
                status: fault == .serverError ? 503 : 429,
                headers: ["retry-after": "7", "content-type": "application/json"],
                body: Data(#"{"error":{"code":"unavailable","message":"try later"}}"#.utf8)
            )
        case .internalError:
            return HTTPResponse(
                status: 500,
                headers: ["content-type": "application/json"],
                body: Data(#"{"error":{"code":"internal","message":"injected"}}"#.utf8)
            )
        case .refuseToken:
            state.withLock { $0.signIns.answer(401, path: path, toSignIn: false) }
            return HTTPResponse(
                status: 401,
                headers: ["content-type": "application/json"],
                body: Data(#"{"error":{"code":"unauthorized","message":"the access token was refused"}}"#.utf8)
            )
        default: break
        }
        guard let server = other ?? server() else { throw noAnswer("the server is down", fromServer: true) }
        let answer: HTTPResponse
        do {
            if fault == .serverDies, other == nil {
                answer = try await answerOrDie(request, path: path, from: server)
            } else {
                answer = try await server.respond(method: request.method, path: path, headers: request.headers, body: request.body)
            }
        } catch let failure as TransportFailure {
            throw failure
        } catch {
            throw noAnswer("the server failed: \(error)", fromServer: other == nil)
        }
        if other == nil { ledger.record(request, path: path, answer: answer) }
        switch fault {
        case .loseAnswer: throw noAnswer("the answer was lost", fromServer: other == nil)
        case .crashAfterApply:
            await crash(link)
            throw TransportFailure(reason: "the device died")
        case .truncateAnswer:
            if other == nil { state.withLock { $0.signIns.answerUnread(answer.status, path: path) } }
            return HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body.prefix(answer.body.count / 2))
        case .junkAnswer:
            if other == nil { state.withLock { $0.signIns.answerUnread(answer.status, path: path) } }
            return HTTPResponse(status: answer.status, headers: answer.headers, body: Data("<html>502 Bad Gateway</html>".utf8))
        case .oversizeAnswer:
            let cap = state.withLock { $0.answerCap }
            let runaway = HTTPResponse(status: answer.status, headers: answer.headers, body: Data(repeating: 0x20, count: cap + 1))
            do {
                return try read(runaway, upTo: maxBodyBytes, path: path)
            } catch {
                state.withLock { $0.refusedPastCap += 1 }
                throw error
            }
        default:
            let read = try read(answer, upTo: maxBodyBytes, path: path)
            if other == nil { state.withLock { $0.signIns.answer(answer.status, path: path, toSignIn: signIn) } }
            return read
        }
    }

    /// `answer`, read as an executor reads it: refused past `maxBodyBytes`, the cap the
    /// device's transport asked for. One that passes though it is past the device's
    /// `sync.max_answer` breaks `past-max-answer`: the device took in what its
    /// configuration says it never reads whole (Kernel v2 7).
    private func read(_ answer: HTTPResponse, upTo maxBodyBytes: Int, path: String) throws -> HTTPResponse {
        guard answer.body.count <= maxBodyBytes else { throw AnswerTooLarge(limit: maxBodyBytes) }
        state.withLock { state in
            guard answer.body.count > state.answerCap else { return }
            state.pastCap.append("it read an answer of \(answer.body.count) bytes to GET \(Self.withoutQuery(path)), past its sync.max_answer of \(state.answerCap)")
        }
        return answer
    }

    /// Whether `request` asks for a page of one of the server's changes feeds.
    private static func isFeedPage(_ request: PreparedRequest, path: String) -> Bool {
        request.method == "GET" && Self.withoutQuery(path).hasSuffix("/changes")
    }

    private static func withoutQuery(_ path: String) -> Substring {
        path.prefix { $0 != "?" }
    }

    /// The device's `sync.max_answer`, in bytes, as its configuration sets it.
    var answerCap: Int {
        get { state.withLock { $0.answerCap } }
        set { state.withLock { $0.answerCap = newValue } }
    }

    /// How many answers past the device's cap it refused to read (as it should).
    var refusedPastCap: Int { state.withLock { $0.refusedPastCap } }

    /// The most requests of the device that waited for their answers at once.
    var mostInFlight: Int { state.withLock { $0.mostInFlight } }

    /// The answers past the device's cap that reached it since the last call.
    func takePastCap() -> [String] {
        state.withLock { state in
            defer { state.pastCap = [] }
            return state.pastCap
        }
    }

    /// A request that got no answer; one to the server cuts the device's way to it now.
    private func noAnswer(_ reason: String, fromServer: Bool) -> TransportFailure {
        if fromServer { cut() }
        return TransportFailure(reason: reason)
    }

    /// The server sits behind a gateway that passes only the protocol's paths, as a reverse
    /// proxy in front of a deployed server may: a request for any other path on its host
    /// (its base URL itself, say) gets no answer, though the way to the server is not cut.
    /// A device that asked such a path to learn whether the server is there would never find it.
    static let gatewayPrefix = "/v1/"

    /// The host `url` names; nil for a path on the server.
    static func host(of url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        return String(rest.prefix { $0 != "/" && $0 != ":" && $0 != "?" })
    }

    /// Sends `request` to a server that dies before it records its answer. A server that
    /// died starts again on its data, which must hold nothing of the request: what it kept
    /// without its idempotency record, a resend would run again (a torn write).
    private func answerOrDie(_ request: PreparedRequest, path: String, from server: any SimulatedServer) async throws -> HTTPResponse {
        let before = try await server.changeSequence()
        let headers = request.headers
        if let answer = try await server.respondDying(method: request.method, path: path, headers: headers, body: request.body) {
            return answer
        }
        try await restartServer()
        let after = try await self.server()?.changeSequence()
        ledger.recordDeath(in: request, path: path, keptChange: after != before)
        throw noAnswer("the server died before it recorded its answer", fromServer: true)
    }

    /// The path and query of `url`: what follows its scheme and host.
    static func path(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        return String(rest[slash...])
    }
}

/// A request a device tried to send: where to, and what its link was then.
public struct SentRequest: Sendable, Equatable {
    public var method: String
    /// The host its URL named (`server.simulated` for the Ferry server).
    public var host: String?
    /// The path and query.
    public var path: String
    /// `offline`, `metered` or `unmetered`.
    public var link: SimulationEvent.NetworkChange
}
