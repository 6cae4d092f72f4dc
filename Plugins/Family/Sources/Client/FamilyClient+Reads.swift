import Foundation
import GRDB
import SyncKernel

extension FamilyClient {
    /// The user's groups: fresh when online, else the cached list.
    public func groups() async throws -> Fetched<[FamilyGroup]> {
        struct Body: Decodable { var groups: [FamilyGroup] }
        return try await read(
            "your groups",
            remote: { try await get("/v1/groups", Body.self).groups },
            store: { groups, now, db in try FamilyCache.storeGroups(groups, now: now, in: db) },
            cached: { db in
                let groups = try FamilyCache.groups(in: db)
                return groups.isEmpty ? nil : (groups, nil)
            }
        )
    }

    /// A group with its members and active round: fresh when online, else cached.
    public func group(_ id: String) async throws -> Fetched<FamilyGroupDetail> {
        let id = try await resolved(id, "group")
        return try await read(
            "group \(id)",
            local: id.hasPrefix(Self.localPrefix),
            remote: { try await get("/v1/groups/\(id)", FamilyGroupDetail.self) },
            store: { detail, now, db in try FamilyCache.storeGroupDetail(detail, now: now, in: db) },
            cached: { db in
                try FamilyCache.groupDetail(id, in: db).map { ($0, try FamilyCache.groupFetchedAt(id, in: db)) }
            }
        )
    }

    /// A round with suggestions, the pick and, when online, fresh votes and tallies.
    /// Offline it is the cached round, without tallies (they are never cached).
    public func round(_ id: String) async throws -> Fetched<FamilyRoundView> {
        let id = try await resolved(id, "round")
        let fetched = try await read(
            "round \(id)",
            local: id.hasPrefix(Self.localPrefix),
            remote: { try await get("/v1/rounds/\(id)", FamilyRoundDetail.self) },
            store: { detail, now, db in try FamilyCache.storeRound(detail, now: now, in: db) },
            cached: { db in
                try FamilyCache.roundDetail(id, in: db).map { ($0, try FamilyCache.roundFetchedAt(id, in: db)) }
            }
        )
        let view = try await runtime.store.read { db in
            let state = try FamilyCache.pickState(id, in: db)
            return FamilyRoundView(
                detail: fetched.value,
                attendees: try fetched.value.round.attendees ?? FamilyCache.attendees(id, in: db),
                localVotes: try FamilyCache.localVotes(id, in: db),
                pickState: state?.state,
                lostPick: state?.lostTMDBID
            )
        }
        return Fetched(value: view, fromCache: fetched.fromCache, fetchedAt: fetched.fetchedAt, note: fetched.note)
    }

    /// GETs `path` through the plugin's transport and decodes the answer.
    func get<T: Decodable>(_ path: String, _ type: T.Type) async throws -> T {
        guard let transport = runtime.transport(for: FamilyPlugin.name) else {
            throw FerryError(
                .configuration,
                "the family plugin is not enabled; add `family: {enabled: true}` under plugins:"
            )
        }
        let response = try await transport.send(HTTPRequest("GET", path))
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch {
            throw FerryError(
                .rejected,
                "the remote's answer to GET \(path) could not be read: \(error)",
                underlying: error
            )
        }
    }

    /// Fresh from the remote (and cached) when online; the cache when offline or when the
    /// remote does not answer; an error naming the fix when neither is possible.
    func read<T: Sendable>(
        _ what: String,
        local: Bool = false,
        remote: () async throws -> T,
        store: @escaping @Sendable (T, Date, Database) throws -> Void,
        cached: @escaping @Sendable (Database) throws -> (T, Date?)?
    ) async throws -> Fetched<T> {
        var reason = local ? "created offline, not on the remote yet" : "offline"
        var serverFailure: String?
        if !local, await isOnline {
            do {
                let value = try await remote()
                let now = runtime.clock.now()
                try await runtime.store.write { db in try store(value, now, db) }
                return Fetched(value: value, fromCache: false)
            } catch {
                switch FailureClass.classify(error, now: runtime.clock.now()) {
                case .offline(let why):
                    await runtime.connectivity.reportUnreachable()
                    reason = "the remote did not answer (\(why))"
                case .transient(let why, _):
                    reason = "the remote is unavailable (\(why))"
                    serverFailure = why
                default:
                    throw FamilyErrors.explain(error, doing: "reading \(what)")
                }
            }
        }
        guard let hit = try await runtime.store.read(cached) else {
            // A server that answered with an error is not a missing connection.
            if let serverFailure {
                throw FerryError(
                    .remoteUnavailable,
                    "reading \(what) failed: the server answered with an error (\(serverFailure)) and there is no cached copy; try again later"
                )
            }
            throw FerryError(
                .requiresConnection,
                "reading \(what) requires a connection (\(reason)) and there is no cached copy; connect and try again"
            )
        }
        return Fetched(value: hit.0, fromCache: true, fetchedAt: hit.1, note: "cached copy: \(reason)")
    }
}
