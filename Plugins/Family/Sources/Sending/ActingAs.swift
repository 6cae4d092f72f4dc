import Foundation
import SyncKernel

/// Acting as a managed member: the header docs/protocol.md names, which the auth plugin
/// sends with the session while the user acts as someone else.
enum ActingAs {
    static let header = "X-Acting-As-Member"

    static func isHeader(_ name: String) -> Bool {
        name.caseInsensitiveCompare(header) == .orderedSame
    }

    /// The member `credentials` act as now, or nil for the user themself.
    static func member(in credentials: any CredentialProvider) async -> String? {
        await credentials.sessionHeaders().first { isHeader($0.name) }?.value
    }
}
