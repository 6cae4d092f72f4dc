/// Supplies the bearer token the transport attaches, and renews it when the remote refuses it.
///
/// The auth plugin implements it; an app can supply its own (a keychain, say).
public protocol CredentialProvider: Sendable {
    /// The current access token, or nil when nobody is signed in.
    func accessToken() async -> String?
    /// Called after a 401 for `rejected`. Returns a fresh token, or nil when the remote
    /// refused to renew the session (then queues hold in "needs login"). Throws when the
    /// refresh got no answer (`TransportFailure`): that is offline, not a logout.
    /// Implementations run one refresh at a time: concurrent callers share its result.
    func refreshAccessToken(rejected: String) async throws -> String?
    /// The signed-in account, used to keep each account's queued work apart.
    func account() async -> String?
    /// The member the user acts as, sent as `X-Acting-As-Member`; nil for themselves.
    func actingAs() async -> String?
}

extension CredentialProvider {
    public func account() async -> String? { nil }
    public func actingAs() async -> String? { nil }
}
