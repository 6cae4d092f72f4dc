/// Supplies the bearer token the transport attaches, and renews it when the remote refuses it.
///
/// The auth plugin implements it; an app can supply its own (a keychain, say).
public protocol CredentialProvider: Sendable {
    /// The current access token, or nil when nobody is signed in and nobody can be. Throws
    /// when getting one needed the remote and it did not answer, or not in a way that can be
    /// read (a sign-in with configured credentials whose answer was lost): the request that
    /// asked fails as that does (offline, not a logout), rather than going without a token
    /// and meeting a 401 that tells a person to sign in.
    func accessToken() async throws -> String?
    /// Called after a 401 for `rejected`. Returns a fresh token, or nil when the remote
    /// refused to renew the session (then queues hold in "needs login"). Throws when the
    /// refresh got no answer (`TransportFailure`): that is offline, not a logout.
    /// Implementations run one refresh at a time: concurrent callers share its result.
    func refreshAccessToken(rejected: String) async throws -> String?
    /// The signed-in account, used to keep each account's queued work apart.
    func account() async -> String?
    /// The account a write made now belongs to: the signed-in account, or the one whose
    /// session the remote ended (nobody signed out, so the writes are still that account's
    /// and wait for it to sign in again); nil when nobody is signed in.
    func writer() async -> String?
    /// Whether the signed-in account takes the work made on this device while nobody was
    /// signed in without asking a person: true when it is the account the configuration
    /// names, which signs in by itself. Otherwise that work waits for a person's login to
    /// keep or discard it.
    func ownsSignedOutWork() async -> Bool
    /// Headers sent with every authenticated request besides the bearer token: what the
    /// remote needs to know of the session (the auth plugin sends the member the user acts
    /// as). The kernel adds them without reading them.
    func sessionHeaders() async -> [(name: String, value: String)]
}

extension CredentialProvider {
    /// No account: queued work is not kept apart by account.
    public func account() async -> String? { nil }
    /// The signed-in account.
    public func writer() async -> String? { await account() }
    /// No configured account: a person decides about the work made while signed out.
    public func ownsSignedOutWork() async -> Bool { false }
    /// No headers besides the bearer token.
    public func sessionHeaders() async -> [(name: String, value: String)] { [] }
}
