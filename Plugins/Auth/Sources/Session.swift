import Foundation

/// A signed-in user as the credential file keeps it.
///
/// After the remote ends a session the tokens are dropped but the user is kept, so that
/// the next login can tell whether queued work belongs to the same person.
public struct Session: Codable, Sendable, Equatable {
    public struct User: Codable, Sendable, Equatable {
        public var id: String
        public var username: String
        public var displayName: String?
    }

    public var user: User
    public var accessToken: String?
    public var refreshToken: String?
    public var accessExpiresAt: Date?
    public var refreshExpiresAt: Date?
    /// When the remote last confirmed the session.
    public var verifiedAt: Date?
    /// The member this user acts as (`X-Acting-As-Member`); nil for themselves.
    public var actingAs: String?

    /// Whether the session still has tokens.
    public var isActive: Bool { accessToken != nil }
}

/// The remote's answer to login and refresh (docs/protocol.md, section 2).
struct TokenAnswer: Decodable {
    let accessToken: String
    let refreshToken: String
    let expiresIn: Double
    let refreshExpiresIn: Double
    let user: Session.User
}

/// The remote's answer to `GET /v1/auth/me`.
struct MeAnswer: Decodable {
    let user: Session.User
}
