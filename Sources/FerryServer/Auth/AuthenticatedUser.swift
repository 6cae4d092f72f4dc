/// The caller of a request, resolved from its bearer access token.
struct AuthenticatedUser: Sendable, Equatable {
    var id: String
    var username: String
    var displayName: String
    var sessionID: String

    /// `{"id", "username", "display_name"}`.
    var json: JSON {
        ["id": .string(id), "username": .string(username), "display_name": .string(displayName)]
    }

    /// The entity scope of this user's own collections.
    var scope: String { "user:\(id)" }
}
