/// Who is acting in a family group: the caller's own member, or a member acted for with
/// `X-Acting-As-Member` (allowed for the member's own user, and for a managed member's
/// manager or the group's creator).
struct FamilyAccess: Sendable {
    var group: JSON
    var groupID: String
    var scope: String
    /// The member the request acts as.
    var acting: JSON
    var actingID: String

    static func scope(_ groupID: String) -> String { "group:\(groupID)" }

    static func resolve(_ db: any SQLSession, groupID: String, request: APIRequest) throws -> FamilyAccess {
        let user = try request.requireUser()
        let scope = scope(groupID)
        guard let group = try Entities.fetch(db, "groups", scope: scope, id: groupID) else {
            throw APIError.notFound("group_not_found", "No group '\(groupID)'.")
        }
        let members = try Entities.list(db, "members", scope: scope)
        guard let own = members.first(where: { $0["user_id"]?.stringValue == user.id }) else {
            throw APIError.forbidden("You are not a member of this group.")
        }
        var acting = own
        if let actingID = request.header("X-Acting-As-Member")?.trimmingCharacters(in: .whitespaces), !actingID.isEmpty
        {
            guard let member = members.first(where: { $0["id"]?.stringValue == actingID }) else {
                throw APIError.forbidden(
                    "Member '\(actingID.prefix(64))' is not in this group.",
                    details: ["member_id": .string(String(actingID.prefix(128)))]
                )
            }
            let isSelf = member["user_id"]?.stringValue == user.id
            let isManaged = member["managed"]?.boolValue == true
            let isManager =
                member["manager_user_id"]?.stringValue == user.id || group["creator_user_id"]?.stringValue == user.id
            guard isSelf || (isManaged && isManager) else {
                throw APIError.forbidden(
                    "You may act only as yourself or as a managed member you manage.",
                    details: ["member_id": .string(actingID)]
                )
            }
            acting = member
        }
        return FamilyAccess(
            group: group,
            groupID: groupID,
            scope: scope,
            acting: acting,
            actingID: acting["id"]?.stringValue ?? ""
        )
    }

    /// The round `roundID` of whichever group it is in, nil when there is none.
    static func round(_ db: any SQLSession, id roundID: String) throws -> JSON? {
        try Entities.listAnyScope(db, "rounds", filter: "id = ?", arguments: [roundID]).first
    }

    /// Resolves the group of round `roundID`, then the access to it.
    static func resolve(_ db: any SQLSession, roundID: String, request: APIRequest) throws -> (FamilyAccess, JSON) {
        guard let round = try Self.round(db, id: roundID), let groupID = round["group_id"]?.stringValue else {
            throw APIError.notFound("round_not_found", "No round '\(roundID)'.")
        }
        return (try resolve(db, groupID: groupID, request: request), round)
    }

    /// Whether the acting member is the group's creator.
    var actingIsCreator: Bool {
        acting["user_id"]?.stringValue != nil && acting["user_id"]?.stringValue == group["creator_user_id"]?.stringValue
    }
}
