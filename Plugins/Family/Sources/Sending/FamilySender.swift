import Foundation
import SyncKernel

/// Puts one family operation on the wire and says what to store when it succeeds.
struct FamilySender: Sendable {
    /// The operation's transport: the kernel gives its writes the operation's keys.
    let transport: HTTPTransport
    let now: Date

    func send(_ kind: FamilyKind, _ payload: FamilyPayload, entity: String) async throws -> SendOutcome {
        if let (id, what) = payload.firstUnsentReference {
            // A close or pick on a round created offline goes once the round's start has
            // left the queue. Still local then, the start left without an id (refused, and
            // the answer named no round it turned out to be): waiting would be for itself.
            if id == entity {
                return .needsPerson(
                    reason: "the \(what) \(id) was never created on the remote (its creation was refused); this \(kind.rawValue) was not sent: do it again on the \(what) the group has now"
                )
            }
            return .waitsFor(
                entity: id,
                reason: "the \(what) \(id) was created offline and has not reached the remote yet; this waits for it"
            )
        }
        let name = kind.rawValue
        let now = self.now
        switch kind {
        case .groupCreate:
            let detail: FamilyGroupDetail = try await post(
                "/v1/groups",
                ["name": try payload.require(payload.name, "name", kind: name)]
            )
            return .delivered(remoteID: detail.group.id) { db in
                try FamilyCache.storeGroupDetail(detail, now: now, in: db)
            }
        case .memberAdd:
            let group = try payload.require(payload.group, "group", kind: name)
            var body: [String: Any] = [:]
            if payload.managed == true {
                body = ["display_name": try payload.require(payload.name, "name", kind: name), "managed": true]
            } else {
                body["username"] = try payload.require(payload.username, "username", kind: name)
                if let display = payload.name { body["display_name"] = display }
            }
            let member: FamilyMember = try await post("/v1/groups/\(group)/members", body)
            return .delivered(remoteID: member.id) { db in try FamilyCache.storeMember(member, in: db) }
        case .roundStart:
            let group = try payload.require(payload.group, "group", kind: name)
            var body: [String: Any] = [:]
            if let roundName = payload.name { body["name"] = roundName }
            if let attendees = payload.attendees, !attendees.isEmpty {
                body["attendees"] = attendees
            }
            let detail: FamilyRoundDetail = try await post("/v1/groups/\(group)/rounds", body)
            return .delivered(remoteID: detail.round.id) { db in try FamilyCache.storeRound(detail, now: now, in: db) }
        case .roundClose:
            let round = try payload.require(payload.round, "round", kind: name)
            let detail: FamilyRoundDetail = try await post("/v1/rounds/\(round)/close", nil)
            return .delivered { db in try FamilyCache.storeRound(detail, now: now, in: db) }
        case .suggest:
            let round = try payload.require(payload.round, "round", kind: name)
            let suggestion: FamilySuggestion = try await post(
                "/v1/rounds/\(round)/suggestions",
                ["tmdb_id": try payload.require(payload.tmdbID, "tmdb_id", kind: name)]
            )
            return .delivered { db in try FamilyCache.storeSuggestion(suggestion, in: db) }
        case .vote:
            let round = try payload.require(payload.round, "round", kind: name)
            let tmdbID = try payload.require(payload.tmdbID, "tmdb_id", kind: name)
            let value = try payload.require(payload.value, "value", kind: name)
            let vote: FamilyVote = try await request(
                "PUT",
                "/v1/rounds/\(round)/votes/\(tmdbID)",
                ["value": value.rawValue]
            )
            let local = LocalVote(
                roundID: round,
                tmdbID: tmdbID,
                memberKey: payload.actingAs ?? FamilyClient.selfKey,
                value: value,
                state: "sent",
                note: "counted for \(vote.memberID)"
            )
            return .delivered { db in try FamilyCache.storeVote(local, in: db) }
        case .pick:
            let round = try payload.require(payload.round, "round", kind: name)
            let pick: FamilyPick = try await post(
                "/v1/rounds/\(round)/pick",
                ["tmdb_id": try payload.require(payload.tmdbID, "tmdb_id", kind: name)]
            )
            return .delivered { db in try FamilyCache.storePick(pick, in: db) }
        }
    }

    private func post<T: Decodable>(_ path: String, _ body: [String: Any]?) async throws -> T {
        try await request("POST", path, body)
    }

    /// Sends a write. An answer that never came is the kernel's to handle: it probes and
    /// sends the operation again with the same key, and the remote replays its answer.
    private func request<T: Decodable>(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> T {
        var request = HTTPRequest(method, path)
        if let body {
            request.headers.append(("Content-Type", "application/json"))
            request.body = try SortedJSON.data(body)
        }
        let response = try await transport.send(request)
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            // An answer cut short or replaced on the way (a proxy's page): the write goes
            // again with the same key, and the remote replays what it did.
            throw FerryError(
                .remoteUnavailable,
                "the remote's answer to \(method) \(path) could not be read (\(error)); it goes again",
                underlying: error
            )
        }
    }
}
