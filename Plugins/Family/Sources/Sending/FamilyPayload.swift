import Foundation
import SyncKernel

/// The payload of every family operation; each kind uses the fields it needs.
///
/// `actingAs` is the member the user acted as when the write was made: a queued vote
/// is attributed to that member even if the user has switched profile since.
public struct FamilyPayload: Codable, Sendable, Equatable {
    /// The group id (`member_add`, `round_start`).
    public var group: String?
    /// The round id (`round_close`, `suggest`, `vote`, `pick`).
    public var round: String?
    /// The movie (`suggest`, `vote`, `pick`).
    public var tmdbID: Int?
    /// The vote (`vote`).
    public var value: VoteValue?
    /// A group's, round's or managed member's name.
    public var name: String?
    /// The username of a member with an account (`member_add` without `managed`).
    public var username: String?
    /// True to add a managed member.
    public var managed: Bool?
    /// The member acted as when the write was made, sent as `X-Acting-As-Member`.
    public var actingAs: String?
    /// The member ids attending (`round_start`); nil or empty means every member of the group.
    public var attendees: [String]?

    /// A payload; each kind fills the fields it needs.
    public init(
        group: String? = nil,
        round: String? = nil,
        tmdbID: Int? = nil,
        value: VoteValue? = nil,
        name: String? = nil,
        username: String? = nil,
        managed: Bool? = nil,
        actingAs: String? = nil,
        attendees: [String]? = nil
    ) {
        self.group = group
        self.round = round
        self.tmdbID = tmdbID
        self.value = value
        self.name = name
        self.username = username
        self.managed = managed
        self.actingAs = actingAs
        self.attendees = attendees
    }

    enum CodingKeys: String, CodingKey {
        case group, round, value, name, username, managed, attendees
        case tmdbID = "tmdb_id"
        case actingAs = "acting_as"
    }

    /// The payload as stored in the outbox.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads the payload of `operation`.
    static func decode(_ operation: QueuedOperation) throws -> FamilyPayload {
        do {
            return try JSONDecoder().decode(FamilyPayload.self, from: operation.payload)
        } catch {
            throw FerryError(
                .plugin,
                "operation \(operation.id) (family.\(operation.kind)) has a payload that cannot be read: \(error)",
                underlying: error
            )
        }
    }

    /// The first group, round or attending member the payload refers to that was created
    /// offline and has no remote id yet, with what it is; nil when every reference is remote.
    var firstUnsentReference: (id: String, what: String)? {
        let references = [(group, "group"), (round, "round")] + (attendees ?? []).map { ($0, "member") }
        for case (let id?, let what) in references where id.hasPrefix(FamilyClient.localPrefix) {
            return (id, what)
        }
        return nil
    }

    /// The field `name` of the payload, or an error naming the operation.
    func require<T>(_ value: T?, _ name: String, kind: String) throws -> T {
        guard let value else { throw FerryError(.plugin, "a family.\(kind) operation has no \(name)") }
        return value
    }
}
