/// The members attending a round: given as `"attendees": [member ids]` when the round is
/// created, stored on the round, and part of every round representation.
enum RoundAttendees {
    static let field = "attendees"

    /// The ids of the request's `attendees` field: nil when absent or null (every member);
    /// a 400 `invalid_field` when it is not an array of strings.
    static func parse(_ body: [String: JSON]) throws(APIError) -> [String]? {
        guard let value = body[field], !value.isNull else { return nil }
        guard let array = value.arrayValue else {
            throw APIError.invalidField(
                field,
                "Field '\(field)' must be an array of member ids, not \(value.typeName)."
            )
        }
        var ids: [String] = []
        for (index, element) in array.enumerated() {
            guard let id = element.stringValue else {
                throw APIError(
                    .badRequest,
                    "invalid_field",
                    "Field '\(field)' must be an array of member ids; element \(index) is \(element.typeName), not string.",
                    details: ["field": .string(field), "index": .int(index)]
                )
            }
            ids.append(id)
        }
        return ids
    }

    /// The attendees of a new round: the ids given, each a member of the group (else a 400
    /// `unknown_attendee` naming it), duplicates collapsed in first-seen order; every member
    /// of the group when none are given.
    static func resolve(_ requested: [String]?, members: [JSON]) throws(APIError) -> [String] {
        let memberIDs = members.compactMap { $0["id"]?.stringValue }
        guard let requested, !requested.isEmpty else { return memberIDs }
        let known = Set(memberIDs)
        var attendees: [String] = []
        for id in requested {
            guard known.contains(id) else {
                let shown = String(id.prefix(64))
                throw APIError.badRequest(
                    "unknown_attendee",
                    "Attendee '\(shown)' is not a member of this group; use member ids from GET /v1/groups/{id}.",
                    details: ["member_id": .string(String(id.prefix(128)))]
                )
            }
            if !attendees.contains(id) { attendees.append(id) }
        }
        return attendees
    }

    /// `round` with its `attendees`; a round stored without them (created before rounds had
    /// attendees) is attended by every current member of its group.
    static func including(_ round: JSON, db: any SQLSession, scope: String) throws -> JSON {
        guard round[field]?.arrayValue == nil else { return round }
        var round = round
        let members = try Entities.list(db, "members", scope: scope)
        round[field] = .array(members.compactMap { $0["id"] }.filter { $0.stringValue != nil })
        return round
    }
}
