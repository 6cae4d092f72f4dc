import Foundation
import GRDB
import SyncKernel

extension FamilyClient {
    /// Submits one family operation as its policy says (online-only or queued).
    /// `local` (the placeholder the user sees) runs only when the operation is queued.
    func submit(
        _ kind: FamilyKind,
        entity: String,
        _ payload: FamilyPayload,
        local: @escaping @Sendable (Database) throws -> Void = { _ in }
    ) async throws -> SubmitResult {
        let operation = NewOperation(
            plugin: FamilyPlugin.name,
            kind: kind.rawValue,
            entity: entity,
            payloadJSON: try payload.encoded()
        )
        return try await runtime.submit(operation, local: local)
    }

    /// The member the user acts as now (`ferry auth act-as`), or nil for themself.
    func actingAs() async -> String? {
        await ActingAs.member(in: runtime.credentials)
    }

    /// Creates a group; the user becomes its creator and first member.
    public func createGroup(name: String) async throws -> FamilyWrite<FamilyGroup> {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            throw FerryError(.usage, "a group needs a name, e.g. `ferry family group create \"Movie Night\"`")
        }
        let localID = Self.newLocalID()
        let placeholder = FamilyGroup(id: localID, name: name)
        let now = runtime.clock.now()
        let result = try await write("creating group \(name)") {
            try await submit(.groupCreate, entity: localID, FamilyPayload(name: name, actingAs: nil)) { db in
                try db.cachedStatement(sql: "INSERT INTO family_groups (id, json, fetched_at) VALUES (?, ?, ?)")
                    .execute(arguments: [localID, try FamilyCache.encode(placeholder), now.timeIntervalSince1970])
            }
        }
        guard case .sent(let outcome) = result, let id = outcome.remoteID else {
            return FamilyWrite(value: placeholder, queued: true)
        }
        let group = try await runtime.store.read { db in try FamilyCache.groupDetail(id, in: db)?.group }
        return FamilyWrite(value: group ?? FamilyGroup(id: id, name: name), queued: false)
    }

    /// Adds a member: a managed member (no account, managed by the user) or, for the
    /// group's creator, a user by username.
    public func addMember(group: String?, name: String, managed: Bool) async throws -> FamilyWrite<FamilyMember> {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            throw FerryError(
                .usage,
                "a member needs a name: `ferry family member add NAME --managed` or a username without --managed"
            )
        }
        let group = try await resolveGroup(group)
        let localID = Self.newLocalID()
        let payload =
            managed
            ? FamilyPayload(group: group, name: name, managed: true, actingAs: await actingAs())
            : FamilyPayload(group: group, username: name, managed: false, actingAs: await actingAs())
        let placeholder = FamilyMember(
            id: localID,
            groupID: group,
            userID: nil,
            displayName: name,
            managed: managed,
            managerUserID: nil,
            role: managed ? "managed" : "member"
        )
        let result = try await write("adding \(name) to group \(group)") {
            try await submit(.memberAdd, entity: localID, payload) { db in
                try FamilyCache.storeMember(placeholder, in: db)
            }
        }
        guard case .sent(let outcome) = result, let id = outcome.remoteID else {
            return FamilyWrite(value: placeholder, queued: true)
        }
        let member = try await runtime.store.read { db in
            try Data.fetchOne(db.cachedStatement(sql: "SELECT json FROM family_members WHERE id = ?"), arguments: [id])
                .map { try FamilyCache.decode(FamilyMember.self, $0) }
        }
        return FamilyWrite(value: member ?? placeholder, queued: false)
    }

    /// Runs a write, turning the remote's refusals into messages that say what to do.
    func write(_ what: String, _ body: () async throws -> SubmitResult) async throws -> SubmitResult {
        do {
            return try await body()
        } catch let error as FerryError where error.code == .requiresConnection {
            throw error
        } catch {
            throw FamilyErrors.explain(error, doing: what)
        }
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
