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

    /// Fresh from the remote (and cached) when it answers; the cache when there is no
    /// connection or the remote fails in a way that may pass (the kernel's
    /// `CachedReader.networkFirst` decides, and its error says which when nothing is cached).
    /// Something created here and not on the remote yet is read from the cache alone.
    func read<T: Sendable>(
        _ what: String,
        local: Bool = false,
        remote: @escaping @Sendable () async throws -> T,
        store: @escaping @Sendable (T, Date, Database) throws -> Void,
        cached: @escaping @Sendable (Database) throws -> (T, Date?)?
    ) async throws -> Fetched<T> {
        let runtime = runtime
        let cache: @Sendable () async throws -> CacheSnapshot<(T, Date?)>? = {
            try await runtime.store.read(cached).map { CacheSnapshot(value: $0, hasPendingWrites: false) }
        }
        if local {
            guard let hit = try await cache() else {
                throw FerryError(.notFound, "\(what) was created here and is not cached any more")
            }
            return Fetched(
                value: hit.value.0,
                fromCache: true,
                fetchedAt: hit.value.1,
                note: "cached copy: created offline, not on the remote yet"
            )
        }
        let read: CachedRead<(T, Date?)>
        do {
            read = try await CachedReader(runtime: runtime).networkFirst(
                what,
                fetch: {
                    let value = try await remote()
                    let now = runtime.clock.now()
                    try await runtime.store.write { db in try store(value, now, db) }
                    return (value, nil)
                },
                cache: cache
            )
        } catch {
            throw FamilyErrors.explain(error, doing: "reading \(what)")
        }
        guard read.isFromCache else { return Fetched(value: read.value.0, fromCache: false) }
        let why = read.remoteFailure.map { "the server failed (\($0))" } ?? read.offline ?? "offline"
        return Fetched(value: read.value.0, fromCache: true, fetchedAt: read.value.1, note: "cached copy: \(why)")
    }
}
