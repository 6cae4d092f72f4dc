import Foundation
import SyncKernel
import Synchronization

/// What the server did with each `Idempotency-Key`, as the wire shows it: every answer that
/// ran the request's effect (a success that is not `Idempotent-Replayed`), alone or inside
/// a batch, in the order the server ran them.
///
/// Two effects for one key is a write applied twice; keys whose operations share an
/// entity must run in the order the device queued them. It also keeps the requests during
/// which the server died and that left a change behind (torn writes), and when the server
/// made each state of an entity that it answered a write with (`madeAt`).
public final class ApplyLedger: Sendable {
    private struct State {
        var effects: [String: Int] = [:]
        /// The key of every effect, in the order they ran.
        var log: [String] = []
        var order: [String] = []
        var torn: [[String]] = []
        var deaths = 0
        var madeAt: [String: Date] = [:]
    }

    private let state = Mutex(State())
    private let clock: WorldClock

    /// A ledger that dates what the server made by `clock`, the world's.
    public init(clock: WorldClock) {
        self.clock = clock
    }

    /// How many times the effect of `key` ran.
    public func effects(of key: String) -> Int { state.withLock { $0.effects[key] ?? 0 } }

    /// The keys whose effects ran more than once.
    public var appliedTwice: [String] { state.withLock { $0.effects.filter { $0.value > 1 }.keys.sorted() } }

    /// Every key whose effect ran, in the order it ran (first time only).
    public var order: [String] { state.withLock { $0.order } }

    /// The `Idempotency-Key`s of each request during which the server died and after which
    /// its data had changed, in the order they came.
    public var tornWrites: [[String]] { state.withLock { $0.torn } }

    /// When, by the world's clock, the server made `entity` (an entity as it answers it: its
    /// `id`, `version` and `updated_at`) in answer to a write; nil when no answer the ledger
    /// saw carried it. `updated_at` says the same, to the precision the server writes.
    public func madeAt(_ entity: Data) -> Date? {
        guard let object = try? JSONSerialization.jsonObject(with: entity) as? [String: Any],
            let made = Self.made(object)
        else { return nil }
        return state.withLock { $0.madeAt[made] }
    }

    /// One state of one entity, as the server answers it; nil without an id and a version.
    private static func made(_ entity: [String: Any]) -> String? {
        guard let id = entity["id"] as? String, let version = (entity["version"] as? NSNumber)?.intValue else { return nil }
        return "\(id) \(version) \(entity["updated_at"] as? String ?? "")"
    }

    /// How far the server has got: `forget(since:)` takes back what it ran after.
    var mark: Int { state.withLock { $0.log.count } }

    /// The server went back to its data as it was at `mark` (restored from a backup): the
    /// effects it ran since are forgotten with that data, so that running one again is no
    /// write applied twice.
    func forget(since mark: Int) {
        state.withLock { state in
            guard mark < state.log.count else { return }
            for key in state.log[mark...] {
                let left = (state.effects[key] ?? 1) - 1
                state.effects[key] = left > 0 ? left : nil
            }
            state.log.removeSubrange(mark...)
        }
    }

    /// How many times the server died in a request.
    public var serverDeaths: Int { state.withLock { $0.deaths } }

    /// Records that the server died during `request`; `keptChange` when its data had
    /// changed after it started again.
    func recordDeath(in request: PreparedRequest, path: String, keptChange: Bool) {
        state.withLock { $0.deaths += 1 }
        guard keptChange else { return }
        let keys = Self.keys(of: request, path: path)
        state.withLock { $0.torn.append(keys) }
    }

    /// The `Idempotency-Key`s `request` carries: its own, or those of a batch's sub-requests.
    static func keys(of request: PreparedRequest, path: String) -> [String] {
        guard request.method == "POST", path.hasSuffix("/v1/batch") else {
            return request.header("Idempotency-Key").map { [$0] } ?? []
        }
        let requests = request.body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["requests"]
        return (requests as? [Any] ?? []).compactMap { item in
            ((item as? [String: Any])?["headers"] as? [String: String]).flatMap(idempotencyKey)
        }
    }

    /// Records the server's answer to `request`.
    func record(_ request: PreparedRequest, path: String, answer: HTTPResponse) {
        if request.method == "POST", path.hasSuffix("/v1/batch"), answer.status == 200 {
            recordBatch(request.body, answer: answer.body)
        } else if let key = request.header("Idempotency-Key") {
            record(
                key: key,
                status: answer.status,
                replayed: Self.isReplay(answer.headers),
                entity: try? JSONSerialization.jsonObject(with: answer.body)
            )
        }
    }

    private func recordBatch(_ body: Data?, answer: Data) {
        guard let body,
            let requests = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["requests"] as? [Any],
            let responses = (try? JSONSerialization.jsonObject(with: answer) as? [String: Any])?["responses"]
                as? [Any]
        else { return }
        for (request, response) in zip(requests, responses) {
            guard let request = request as? [String: Any], let response = response as? [String: Any],
                let status = response["status"] as? Int
            else { continue }
            guard let key = Self.idempotencyKey((request["headers"] as? [String: String]) ?? [:]) else { continue }
            let answered = (response["headers"] as? [String: String]) ?? [:]
            record(key: key, status: status, replayed: Self.isReplay(answered), entity: response["body"])
        }
    }

    /// `entity` (the answer's body) is read only for an answer that ran the effect.
    private func record(key: String, status: Int, replayed: Bool, entity: @autoclosure () -> Any?) {
        guard (200..<300).contains(status), !replayed else { return }
        let made = (entity() as? [String: Any]).flatMap(Self.made)
        let now = clock.now
        state.withLock { state in
            if state.effects[key] == nil { state.order.append(key) }
            state.effects[key, default: 0] += 1
            state.log.append(key)
            if let made { state.madeAt[made] = now }
        }
    }

    private static func idempotencyKey(_ headers: [String: String]) -> String? {
        headers.first { $0.key.lowercased() == "idempotency-key" }?.value
    }

    private static func isReplay(_ headers: [String: String]) -> Bool {
        headers.contains { $0.key.lowercased() == "idempotent-replayed" && $0.value == "true" }
    }
}
