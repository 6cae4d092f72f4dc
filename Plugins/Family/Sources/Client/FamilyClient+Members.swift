import Foundation
import SyncKernel

extension FamilyClient {
    /// The members of group `groupID`: the cached ones when `enough` says they are (they
    /// name everyone to be shown), else the group fetched again (fresh when online), so
    /// that a device that never showed the group prints names after one read. Never fails:
    /// without members, ids are printed.
    public func members(of groupID: String, enough: ([FamilyMember]) -> Bool) async -> [FamilyMember] {
        let cached = (try? await runtime.store.read { db in try FamilyCache.groupDetail(groupID, in: db)?.members }) ?? nil
        if let cached, enough(cached) { return cached }
        return (try? await group(groupID).value.members) ?? cached ?? []
    }

    /// Whether `account` may act as `member`: its own member, or a managed member it
    /// manages, in a cached group; the groups are fetched once more when the member is not
    /// cached and the remote is reachable.
    func actingCheck(_ member: String, account: String) async -> MemberCheck {
        if let known = await cachedMember(member) { return Self.check(known, account: account) }
        guard await isOnline else {
            return .unchecked(
                "\(member) is not in the groups cached here, and the server cannot be reached to look it up"
            )
        }
        if let groups = try? await groups().value {
            for group in groups { _ = try? await self.group(group.id) }
        }
        if let known = await cachedMember(member) { return Self.check(known, account: account) }
        return .refused(
            "\(member) is not a member of any of your groups; `ferry family group show GROUP` lists the members and their ids"
        )
    }

    private func cachedMember(_ id: String) async -> FamilyMember? {
        (try? await runtime.store.read { db in try FamilyCache.member(id, in: db) }) ?? nil
    }

    private static func check(_ member: FamilyMember, account: String) -> MemberCheck {
        if member.userID == account || (member.managed && member.managerUserID == account) {
            return .allowed(name: member.displayName)
        }
        return .refused(
            "\(member.displayName) (\(member.id)) is not you and not a member you manage; you may act only as yourself or as a managed member of yours"
        )
    }
}
