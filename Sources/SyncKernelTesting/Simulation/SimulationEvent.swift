import Foundation

/// One step of a simulation, drawn from its seed or read back from a trace.
///
/// Every choice a run makes is an event, faults included (a fault is armed for a device's
/// next request, not drawn while it is sent), so a list of events replays the same run,
/// and a shorter list is a smaller run: what the shrinker works on.
public enum SimulationEvent: Hashable, Sendable, CustomStringConvertible {
    /// A workload's action on a device: `workload` names the workload, `action` is its own text.
    case act(device: Int, workload: String, action: String)
    /// The device's runner does one pass: sends what is due, pulls, sends again.
    case sync(device: Int)
    /// A second process on the device (`ferry run --once` from a terminal while the app
    /// runs) opens its store beside the device's own process, does one pass, and exits.
    case beside(device: Int)
    /// Time passes for everyone.
    case wait(seconds: Double)
    /// The device's link changes.
    case network(device: Int, NetworkChange)
    /// The device's next request meets `fault`.
    case fault(device: Int, RequestFault)
    /// The device's process dies between two steps; its store is opened again.
    case crash(device: Int)
    /// The device's process dies and its store is damaged: the next life must refuse it,
    /// naming what is damaged, until a person puts back the copy they kept.
    case damageStore(device: Int, StoreDamage)
    /// The server stops and starts again on its own data.
    case restartServer
    /// The server stops, answers no device for `seconds` (connections refused), and starts
    /// again on its own data: an outage of the remote while the devices' links stay up.
    case serverDown(seconds: Double)
    /// The server stops, its data is replaced by the backup taken at its last restart, and
    /// it starts again on it: the writes and sessions since are forgotten.
    case restoreServer
    /// The server ends the device's session (a revoked token: the person must sign in again).
    case revokeSession(device: Int)
    /// A person signs in on the device again: with the account the workloads act as, or
    /// with another (`account`), under which the device's queued writes must wait.
    case signIn(device: Int, account: String?)
    /// The device's disk fills up (`true`) or has room again (`false`).
    case diskFull(device: Int, Bool)
    /// The device's clock runs `seconds` ahead of the world's (behind when negative).
    case skew(device: Int, seconds: Double)

    /// A change of a device's link.
    public enum NetworkChange: String, Hashable, Sendable, CaseIterable {
        case offline, online, metered, unmetered
    }

    /// How a device's store is damaged while its process is down.
    public enum StoreDamage: String, Hashable, Sendable, CaseIterable {
        /// The store file left empty and its journal gone: a crash that truncated it, a
        /// copy that replaced it.
        case empty
        /// The id of the first queued operation (its idempotency key) made unreadable, as
        /// an edit of the file by hand may leave it.
        case unreadableID = "unreadable-id"
    }

    /// What happens to one request.
    public enum RequestFault: String, Hashable, Sendable, CaseIterable {
        /// The server answers 503 with `Retry-After`, doing nothing.
        case serverError = "503"
        /// The server answers 500, doing nothing.
        case internalError = "500"
        /// The server answers 429 with `Retry-After`, doing nothing.
        case rateLimited = "429"
        /// The request never reaches the server: no answer.
        case dropRequest = "drop-request"
        /// The server handles the request; its answer is lost on the way back.
        case loseAnswer = "lose-answer"
        /// The server handles the request; its answer arrives cut short.
        case truncateAnswer = "truncate-answer"
        /// The server handles the request; the answer's body arrives as junk.
        case junkAnswer = "junk-answer"
        /// The device dies just before the request leaves.
        case crashBeforeSend = "crash-before-send"
        /// The device dies after the server handled the request, before the answer arrives.
        case crashAfterApply = "crash-after-apply"
        /// The server refuses the access token of the device's next request and the one its
        /// refresh gives (a session store lagging behind): two 401s in a row, though the
        /// session stands. Requests without a token (a refresh, a login) and requests to
        /// other hosts pass it by.
        case refuseToken = "refuse-token"
        /// The server dies inside the transaction of the request, after its effect and
        /// before its idempotency record, and starts again on its data: no answer. A request
        /// that records nothing (a read) is answered.
        case serverDies = "server-dies"
        /// The next page of a changes feed the device asks the server for arrives larger
        /// than the device's `sync.max_answer` (a runaway page, a proxy's): the device must
        /// not read it, and pulls it again later. Other requests pass it by.
        case oversizeAnswer = "oversize-answer"

        /// The faults drawn with the others; `oversize-answer` is drawn apart (its own
        /// stream), so that a seed draws the others as it did before it came.
        static let drawnTogether = allCases.filter { $0 != .oversizeAnswer }
    }

    /// The event as one line of a trace; `init?(line:)` reads it back.
    public var description: String {
        switch self {
        case .act(let device, let workload, let action): "act \(device) \(workload) \(action)"
        case .sync(let device): "sync \(device)"
        case .beside(let device): "beside \(device)"
        case .wait(let seconds): "wait \(Self.format(seconds))"
        case .network(let device, let change): "network \(device) \(change.rawValue)"
        case .fault(let device, let fault): "fault \(device) \(fault.rawValue)"
        case .crash(let device): "crash \(device)"
        case .damageStore(let device, let damage): "damage-store \(device) \(damage.rawValue)"
        case .restartServer: "restart-server"
        case .serverDown(let seconds): "server-down \(Self.format(seconds))"
        case .restoreServer: "restore-server"
        case .revokeSession(let device): "revoke \(device)"
        case .signIn(let device, let account): "sign-in \(device)" + (account.map { " \($0)" } ?? "")
        case .diskFull(let device, let full): "disk \(device) \(full ? "full" : "free")"
        case .skew(let device, let seconds): "skew \(device) \(Self.format(seconds))"
        }
    }

    /// Reads one line as `description` writes it; nil when it is not an event.
    public init?(line: String) {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let verb = words.first else { return nil }
        let device = words.count > 1 ? Int(words[1]) : nil
        switch (verb, device, words.count) {
        case ("act", let device?, 4...):
            self = .act(device: device, workload: words[2], action: words[3...].joined(separator: " "))
        case ("sync", let device?, 2): self = .sync(device: device)
        case ("beside", let device?, 2): self = .beside(device: device)
        case ("wait", _, 2):
            guard let seconds = Double(words[1]) else { return nil }
            self = .wait(seconds: seconds)
        case ("network", let device?, 3):
            guard let change = NetworkChange(rawValue: words[2]) else { return nil }
            self = .network(device: device, change)
        case ("fault", let device?, 3):
            guard let fault = RequestFault(rawValue: words[2]) else { return nil }
            self = .fault(device: device, fault)
        case ("crash", let device?, 2): self = .crash(device: device)
        case ("damage-store", let device?, 3):
            guard let damage = StoreDamage(rawValue: words[2]) else { return nil }
            self = .damageStore(device: device, damage)
        case ("restart-server", _, 1): self = .restartServer
        case ("restore-server", _, 1): self = .restoreServer
        case ("server-down", _, 2):
            guard let seconds = Double(words[1]), seconds >= 0 else { return nil }
            self = .serverDown(seconds: seconds)
        case ("revoke", let device?, 2): self = .revokeSession(device: device)
        case ("sign-in", let device?, 2): self = .signIn(device: device, account: nil)
        case ("sign-in", let device?, 3): self = .signIn(device: device, account: words[2])
        case ("disk", let device?, 3) where ["full", "free"].contains(words[2]):
            self = .diskFull(device: device, words[2] == "full")
        case ("skew", let device?, 3):
            guard let seconds = Double(words[2]) else { return nil }
            self = .skew(device: device, seconds: seconds)
        default: return nil
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.3f", seconds)
    }
}
