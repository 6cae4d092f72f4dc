import AuthPlugin
import FamilyPlugin
import Foundation
import GRDB
import SyncKernel
import SyncKernelTesting

/// Movie night in the demo family, from every device: rounds started and closed,
/// suggestions, votes as the demo user or as the managed member Kiddo (last vote wins per
/// member), and the pick. A person acts on the round their device shows open (fresh when
/// online, as last seen otherwise); the writes are queued (`delivery: queued`), so that
/// faults meet them in the runner as well as at once, except on the device set up by its
/// configuration alone, where they are online-only as family ships: a write that fails
/// there may still have been taken (its answer lost), so it counts as maybe done.
///
/// Checks: exactly one pick per picked round on the server, and none for any other; every
/// pick one some device made for that round; a round some device picked and nobody closed
/// ends picked; a vote only one device cast for a member ends on the server as that
/// device last cast it (unless the round had stopped taking votes: refused); and every
/// device, once a person looks, shows each round's status and pick as the server does.
final class FamilyWorkload: SimulationWorkload, @unchecked Sendable {
    let name = "family"
    static let group = "g_demo_family"
    /// Films of the server's catalogue, by TMDB id.
    static let films = [129, 603, 949, 438_631]
    /// Who a vote is cast as: the demo user, or the managed member they act as.
    static let members = ["self": "mem_demo", "kid": "mem_kid"]

    /// A write a device acknowledged on a round, under the round id it used (a local id
    /// for a round started offline).
    private struct Write {
        var device: Int
        var round: String
        var tmdbID: Int
        var member: String
        var value: String
        /// Whether another account signed in on the device since: the device forgot its
        /// local rows then, a refusal's mark with them.
        var forgottenLocally = false
        /// Whether the server was restored from a backup since: it may have forgotten the
        /// write, and what it holds now of the vote or the pick is no longer followed.
        var beforeRestore = false
        /// An online-only write that failed: the server may or may not have taken it.
        var maybe = false
    }

    /// Whether the server was restored from a backup during the run.
    private var restored = false
    private var picks: [Write] = []
    private var closes: [Write] = []
    private var votes: [Write] = []

    func draw(device: Int, using random: inout SeededRandom) -> String {
        let film = Self.films.randomElement(using: &random)!
        let value = VoteValue.allCases.randomElement(using: &random)!.rawValue
        let member = random.chance(0.5) ? "self" : "kid"
        return random.weighted([
            ("start night-\(Int.random(in: 1...99, using: &random))", 2), ("suggest \(film)", 2),
            ("vote \(film) \(value) \(member)", 6), ("pick \(film)", 2), ("close", 1),
        ])
    }

    func perform(_ action: String, on device: SimulatedDevice, in world: SimulationWorld) async throws {
        let words = action.split(separator: " ").map(String.init)
        let family = FamilyClient(runtime: device.runtime)
        let auth = try device.runtime.plugin(AuthPlugin.self)
        if words.first == "start", words.count == 2 {
            // A person starts a round when the group shows none open.
            if let open = try await family.group(Self.group).value.activeRound {
                throw FerryError(.conflict, "the group has the round \(open.round.name ?? "?") open")
            }
            _ = try await auth.act(as: nil)
            _ = try await family.startRound(group: Self.group, name: words[1])
            return
        }
        // On the online-only device, a person acts on the round the screen shows as last
        // loaded, so the write is the request that meets a fault; elsewhere, on it fresh.
        let cached = device.isConfigured ? try await device.runtime.store.read { db in try FamilyCache.groupDetail(Self.group, in: db) } : nil
        let shown = if let cached { cached } else { try await family.group(Self.group).value }
        guard let round = shown.activeRound?.round.id else {
            throw FerryError(.notFound, "the group shows no open round")
        }
        let tmdbID = words.count > 1 ? Int(words[1]) ?? 0 : 0
        switch (words.first, words.count) {
        case ("suggest", 2):
            _ = try await auth.act(as: nil)
            _ = try await family.suggest(round: round, tmdbID: tmdbID)
        case ("vote", 4):
            guard let member = Self.members[words[3]], let value = VoteValue(rawValue: words[2]) else {
                throw FerryError(.usage, "unknown family action \(action)")
            }
            _ = try await auth.act(as: member == "mem_demo" ? nil : member)
            let vote = Write(device: device.index, round: round, tmdbID: tmdbID, member: member, value: value.rawValue)
            try await record(vote, in: \.votes, on: device) { _ = try await family.vote(round: round, tmdbID: tmdbID, value: value) }
        case ("pick", 2):
            _ = try await auth.act(as: nil)
            let pick = Write(device: device.index, round: round, tmdbID: tmdbID, member: "mem_demo", value: "pick")
            try await record(pick, in: \.picks, on: device) { _ = try await family.pick(round: round, tmdbID: tmdbID) }
        case ("close", 1):
            _ = try await auth.act(as: nil)
            let close = Write(device: device.index, round: round, tmdbID: 0, member: "mem_demo", value: "close")
            try await record(close, in: \.closes, on: device) { _ = try await family.closeRound(round) }
        default:
            throw FerryError(.usage, "unknown family action \(action)")
        }
    }

    /// Makes the write `send` and counts it in `writes` once it returns; an online-only write
    /// that failed counts as maybe taken (its answer may have been lost).
    private func record(
        _ write: Write,
        in writes: ReferenceWritableKeyPath<FamilyWorkload, [Write]>,
        on device: SimulatedDevice,
        _ send: () async throws -> Void
    ) async throws {
        do {
            try await send()
        } catch {
            if device.isConfigured, Self.mayHaveBeenTaken(error) {
                var maybe = write
                maybe.maybe = true
                self[keyPath: writes].append(maybe)
            }
            throw error
        }
        self[keyPath: writes].append(write)
    }

    /// Whether a failed online-only write may have been taken: it got no answer, or the
    /// device died or its store failed on the way. A refusal (of the server, or of the
    /// person's input), or no connection before it went, took nothing.
    private static func mayHaveBeenTaken(_ error: any Error) -> Bool {
        guard let error = error as? FerryError else { return true }
        switch error.code {
        case .requiresConnection: return error.underlying is TransportFailure
        case .conflict, .notFound, .rejected, .usage, .needsLogin: return false
        default: return true
        }
    }

    /// After a restore, the votes and picks written before it are no longer followed:
    /// every pick must still be one a device made, every device must still show each
    /// round as the server does.
    var followsRestores: Bool { true }

    func serverRestored() {
        restored = true
        for index in picks.indices { picks[index].beforeRestore = true }
        for index in votes.indices { votes[index].beforeRestore = true }
    }

    /// A suggestion, vote, pick or close in a round the restored server forgot can never
    /// be taken (`404 round_not_found`, or a 404 whose body was cut short on the way): it
    /// stays dead, for the person to see that it did not count, rather than vanish.
    func needsPerson(_ operation: QueuedOperation) -> Bool {
        guard restored, let error = operation.lastError else { return false }
        return error.hasPrefix("404 round_not_found") || error.hasPrefix("HTTP 404")
    }

    func check(_ world: SimulationWorld) async throws -> [SimulationViolation] {
        let rounds = try await serverRounds(world)
        let resolved = try await resolve(world)
        var violations: [SimulationViolation] = []
        for round in rounds {
            let name = round.name
            let picked = resolved.picks.filter { $0.round == round.id }
            if (round.status == "picked") != (round.pick != nil) {
                violations.append(
                    SimulationViolation("one-pick", "round \(name) is \(round.status) on the server with \(round.pick == nil ? "no pick" : "a pick")")
                )
            }
            if let pick = round.pick, !picked.contains(where: { $0.tmdbID == pick }) {
                violations.append(
                    SimulationViolation("one-pick", "round \(name) has the pick \(pick) on the server, which no device picked (\(picked.map(\.tmdbID)))")
                )
            }
            let closed = resolved.closes.contains { $0.round == round.id }
            let restoredAway = picked.contains(where: \.beforeRestore)
            let taken = picked.filter { !$0.maybe }
            if round.pick == nil, let first = taken.first, !closed, !restoredAway {
                violations.append(
                    SimulationViolation("lost-pick", "device \(first.device) picked \(first.tmdbID) in round \(name) and nobody closed it, but the server has no pick")
                )
            }
            violations += try await checkVotes(of: round, cast: resolved.votes.filter { $0.round == round.id }, in: world)
            for device in world.devices {
                violations += try await compare(device, with: round)
            }
        }
        return violations
    }

    /// The device forgets the family's local rows once another account signs in there; its
    /// queued writes stay the workloads' account's.
    func anotherAccountSignedIn(on device: Int) {
        for index in votes.indices where votes[index].device == device { votes[index].forgottenLocally = true }
    }

    /// A vote only one device cast for a member on a film: the server has its last value,
    /// unless the device's vote was refused (the round stopped taking votes first).
    private func checkVotes(of round: ServerRound, cast: [Write], in world: SimulationWorld) async throws -> [SimulationViolation] {
        var violations: [SimulationViolation] = []
        let keys = Set(cast.map { "\($0.tmdbID)/\($0.member)" }).sorted()
        for key in keys {
            let writes = cast.filter { "\($0.tmdbID)/\($0.member)" == key }
            // A vote that may or may not have been taken after the last one that was leaves
            // either on the server.
            guard Set(writes.map(\.device)).count == 1, !writes.contains(where: \.beforeRestore), let last = writes.last,
                !last.maybe
            else { continue }
            let device = world.devices[last.device]
            let memberKey = last.member == "mem_demo" ? FamilyClient.selfKey : last.member
            let local = try await device.runtime.store.read { db in
                try FamilyCache.localVotes(round.id, in: db).first { $0.tmdbID == last.tmdbID && $0.memberKey == memberKey }
            }
            guard local?.state != "refused" else { continue }
            // Refused with its mark forgotten: the round stopped taking votes first.
            if local == nil, last.forgottenLocally, round.status != "voting" { continue }
            let server = round.votes["\(last.tmdbID)/\(last.member)"]
            if server != last.value {
                violations.append(
                    SimulationViolation("lost-vote", "device \(last.device) last voted \(last.value) on \(last.tmdbID) as \(last.member) in round \(round.name) (\(local?.state ?? "no local vote")), and no other device did, but the server has \(server ?? "no vote")")
                )
            }
        }
        return violations
    }

    /// What a person sees of `round` on `device` once they open it (online, after the settle).
    private func compare(_ device: SimulatedDevice, with round: ServerRound) async throws -> [SimulationViolation] {
        let shown = try await FamilyClient(runtime: device.runtime).round(round.id)
        let detail = shown.value.detail
        guard detail.round.status != round.status || detail.pick?.tmdbID != round.pick || shown.value.pickState == "pending"
        else { return [] }
        return [
            SimulationViolation("diverged", "device \(device.index) shows round \(round.name) \(detail.round.status) with pick \(detail.pick.map { "\($0.tmdbID)" } ?? "none") (\(shown.value.pickState ?? "no local pick")), the server \(round.status) with pick \(round.pick.map(String.init) ?? "none")")
        ]
    }

    /// The writes with each round under its server id (a round started offline is found
    /// through the id mapping of the device that started it).
    private func resolve(_ world: SimulationWorld) async throws -> (picks: [Write], closes: [Write], votes: [Write]) {
        func resolved(_ writes: [Write]) async throws -> [Write] {
            var result: [Write] = []
            for var write in writes {
                let local = write.round
                let remote = try await world.devices[write.device].runtime.store.read { db in
                    try IDMappings.remoteID(plugin: FamilyPlugin.name, localID: local, in: db)
                }
                write.round = remote ?? local
                result.append(write)
            }
            return result
        }
        return (try await resolved(picks), try await resolved(closes), try await resolved(votes))
    }

    /// A round as the server has it: status, pick and votes (`tmdb/member`: value).
    private struct ServerRound {
        var id: String
        var name: String
        var status: String
        var pick: Int?
        var votes: [String: String]
    }

    private func serverRounds(_ world: SimulationWorld) async throws -> [ServerRound] {
        let list = try await world.json("/v1/groups/\(Self.group)/rounds", as: world.devices[0])
        var rounds: [ServerRound] = []
        for id in ((list["rounds"] as? [[String: Any]]) ?? []).compactMap({ $0["id"] as? String }) {
            let detail = try await world.json("/v1/rounds/\(id)", as: world.devices[0])
            var votes: [String: String] = [:]
            for vote in (detail["votes"] as? [[String: Any]]) ?? [] {
                votes["\(vote["tmdb_id"] as? Int ?? 0)/\(vote["member_id"] as? String ?? "")"] = vote["value"] as? String
            }
            rounds.append(
                ServerRound(
                    id: id,
                    name: detail["name"] as? String ?? id,
                    status: detail["status"] as? String ?? "",
                    pick: (detail["pick"] as? [String: Any])?["tmdb_id"] as? Int,
                    votes: votes
                )
            )
        }
        return rounds.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }
}
