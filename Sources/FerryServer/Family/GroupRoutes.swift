import Foundation

/// `/v1/groups`: family groups and their members.
enum GroupRoutes {
    static var routes: [Route] {
        [
            Route(.get, "/v1/groups", handler: list),
            Route(.post, "/v1/groups", handler: create),
            Route(.get, "/v1/groups/{id}", handler: show),
            Route(.post, "/v1/groups/{id}/members", handler: addMember),
            Route(
                .get,
                "/v1/groups/{id}/changes",
                handler: ChangesFeed.handler(familyCollections) { request, env in
                    let groupID = try Identifier.validated(request.parameter("id"))
                    return try await env.database.read { db in
                        try FamilyAccess.resolve(db, groupID: groupID, request: request).scope
                    }
                }
            ),
        ]
    }

    /// Everything a group's changes feed covers.
    static let familyCollections = ["groups", "members", "rounds", "suggestions", "votes", "picks"]

    static func list(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let user = try request.requireUser()
        let groups = try await env.database.read { db in
            try Entities.listAnyScope(
                db,
                "members",
                filter: db.dialect.jsonEquals("data", key: "user_id"),
                arguments: [user.id]
            )
            .compactMap { member -> JSON? in
                guard let groupID = member["group_id"]?.stringValue else { return nil }
                return try Entities.fetch(db, "groups", scope: FamilyAccess.scope(groupID), id: groupID)
            }
        }
        return .json(["groups": .array(groups)])
    }

    static func create(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let user = try request.requireUser()
        let body = try request.jsonObject(allowing: ["name"])
        let name = try body.requiredString("name")
        let now = env.now
        return try await env.database.commit(now: now) { db in
            let groupID = TokenGenerator.id(prefix: "g_")
            let scope = FamilyAccess.scope(groupID)
            try Entities.put(
                db,
                "groups",
                scope: scope,
                id: groupID,
                data: [
                    "name": .string(name), "creator_user_id": .string(user.id),
                    "created_at": .string(Timestamp.string(now)),
                ],
                now: now
            )
            try Entities.put(
                db,
                "members",
                scope: scope,
                id: TokenGenerator.id(prefix: "mem_"),
                data: [
                    "group_id": .string(groupID), "user_id": .string(user.id),
                    "display_name": .string(user.displayName),
                    "managed": false, "manager_user_id": .null, "role": "creator",
                ],
                now: now
            )
            return try detail(db, groupID: groupID)
        } answer: { group in
            .entity(group, status: .created, headers: ["Location": "/v1/groups/\(group["id"]?.stringValue ?? "")"])
        }
    }

    static func show(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let groupID = try Identifier.validated(request.parameter("id"))
        let group = try await env.database.read { db in
            _ = try FamilyAccess.resolve(db, groupID: groupID, request: request)
            return try detail(db, groupID: groupID)
        }
        return .entity(group)
    }

    /// A group with `members` and `active_round` (or null).
    static func detail(_ db: any SQLSession, groupID: String) throws -> JSON {
        let scope = FamilyAccess.scope(groupID)
        var group = try Entities.require(db, "groups", scope: scope, id: groupID, code: "group_not_found")
        group["members"] = .array(try Entities.list(db, "members", scope: scope))
        group["active_round"] =
            try RoundRoutes.activeRound(db, scope: scope).map { try RoundRoutes.detail(db, round: $0, scope: scope) }
            ?? .null
        return group
    }

    /// Adds a user member (`{"username"}`, creator only) or a managed member
    /// (`{"display_name", "managed": true}`, managed by the caller).
    static func addMember(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let user = try request.requireUser()
        let groupID = try Identifier.validated(request.parameter("id"))
        let body = try request.jsonObject(allowing: ["username", "display_name", "managed"])
        let managed = body["managed"]?.boolValue ?? false
        if let value = body["managed"], value.boolValue == nil {
            throw APIError.invalidField("managed", "managed must be a boolean.")
        }
        let username = managed ? nil : try body.requiredString("username")
        let displayName = try body.optionalString("display_name")
        if managed, displayName?.isEmpty ?? true {
            throw APIError.invalidField("display_name", "A managed member needs a non-empty display_name.")
        }
        let now = env.now
        return try await env.database.commit(now: now) { db -> JSON in
            let access = try FamilyAccess.resolve(db, groupID: groupID, request: request)
            let memberID = TokenGenerator.id(prefix: "mem_")
            if managed {
                return try Entities.put(
                    db,
                    "members",
                    scope: access.scope,
                    id: memberID,
                    data: [
                        "group_id": .string(groupID), "user_id": .null, "display_name": .optional(displayName),
                        "managed": true, "manager_user_id": .string(user.id), "role": "managed",
                    ],
                    now: now
                )
            }
            guard access.group["creator_user_id"]?.stringValue == user.id else {
                throw APIError.forbidden("Only the group's creator may add members with an account.")
            }
            guard let found = try Users.find(db, username: username ?? "")?.user, let userID = found["id"]?.stringValue
            else {
                throw APIError.notFound("user_not_found", "No user '\(username ?? "")'.")
            }
            let members = try Entities.list(db, "members", scope: access.scope)
            if let existing = members.first(where: { $0["user_id"]?.stringValue == userID }) {
                throw APIError.conflict("already_member", "'\(username ?? "")' is already a member.", current: existing)
            }
            return try Entities.put(
                db,
                "members",
                scope: access.scope,
                id: memberID,
                data: [
                    "group_id": .string(groupID), "user_id": .string(userID),
                    "display_name": .string(displayName ?? found["display_name"]?.stringValue ?? username ?? ""),
                    "managed": false, "manager_user_id": .null, "role": "member",
                ],
                now: now
            )
        } answer: { member in
            .entity(member, status: .created)
        }
    }
}
