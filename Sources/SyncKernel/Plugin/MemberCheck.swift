/// What a plugin knows of a member the signed-in user wants to act as (`ferry auth act-as`).
public enum MemberCheck: Sendable, Equatable {
    /// The user may act as this member, who is called `name`.
    case allowed(name: String)
    /// The user may not: the reason says why and what to do instead.
    case refused(String)
    /// It could not be checked now (offline with nothing cached); the remote checks each request.
    case unchecked(String)
}

extension FerryRuntime {
    /// What the enabled plugins know of `member` as someone the signed-in account may act
    /// as; empty when nobody is signed in or no plugin knows members.
    public func checkActingAs(_ member: String) async -> [MemberCheck] {
        guard let account = await credentials.account() else { return [] }
        var checks: [MemberCheck] = []
        for plugin in registry.plugins {
            if let check = await plugin.checkActingAs(member, account: account, runtime: self) { checks.append(check) }
        }
        return checks
    }
}
