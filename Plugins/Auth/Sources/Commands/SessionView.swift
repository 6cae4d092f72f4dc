import Foundation

/// A session as commands show it: never a token.
struct SessionView: Encodable {
    let userID: String
    let username: String
    let displayName: String?
    let signedIn: Bool
    let accessExpiresAt: Date?
    let verifiedAt: Date?
    let actingAs: String?

    init(_ session: Session, now: Date) {
        userID = session.user.id
        username = session.user.username
        displayName = session.user.displayName
        signedIn = session.isActive
        accessExpiresAt = session.accessExpiresAt
        verifiedAt = session.verifiedAt
        actingAs = session.actingAs
    }
}
