import Foundation
import GRDB
import SyncKernel

/// Sign in once, keep working offline, sign out only when the remote ends the session.
///
/// The kernel's credential provider: the transport asks it for the bearer token, it
/// renews the token once on a 401, and it tells the network being down from the remote
/// refusing the session. Its "pull" verifies the session with the remote.
public struct AuthPlugin: SyncPlugin, CredentialProvider {
    public typealias Settings = AuthSettings

    public static let name = "auth"
    public static let summary = "Sign in, tokens with refresh, offline launch with cached credentials"
    public static let operations: [String: OperationPolicy] = [:]

    let keeper: SessionKeeper
    let client: AuthClient
    let settings: AuthSettings

    public init(settings: AuthSettings, context: PluginContext) throws {
        let folder = context.directory.path
        let file = settings.credentialFile ?? folder + "/credentials.json"
        let client = AuthClient(anonymous: context.transport.with(credentials: nil), authenticated: context.transport)
        let store = FileCredentialStore(path: file)
        // A credential file others can read stops the command here, with the chmod that
        // fixes it. Opened anyway, it would read as "nobody signed in": queues would hold
        // for a login and writes would be kept as made while signed out, and both would
        // outlive the chmod. Refused here, nothing is recorded, and the next command after
        // the chmod works with the session as it was.
        _ = try store.load()
        self.init(
            settings: settings,
            client: client,
            keeper: SessionKeeper(
                store: store,
                client: client,
                clock: context.clock,
                lockPath: folder + "/refresh.lock",
                logger: context.logger
            )
        )
    }

    init(settings: AuthSettings, client: AuthClient, keeper: SessionKeeper) {
        self.settings = settings
        self.client = client
        self.keeper = keeper
    }

    // MARK: Credential provider

    public func accessToken() async throws -> String? {
        let session: Session?
        do {
            session = try await keeper.current()
        } catch {
            // A damaged credential file: a configured username and password sign in again
            // and replace it; without them, a person must.
            await keeper.report(error)
            return try await automaticLogin(replacing: nil)
        }
        if let token = session?.accessToken {
            if let expiry = session?.accessExpiresAt, expiry <= keeper.clock.now() {
                return (try? await keeper.refresh(rejected: token)) ?? token
            }
            return token
        }
        return try await automaticLogin(replacing: session)
    }

    public func refreshAccessToken(rejected: String) async throws -> String? {
        try await keeper.refresh(rejected: rejected)
    }

    public func account() async -> String? {
        guard let session = try? await keeper.current(), session.isActive else { return nil }
        return session.user.id
    }

    /// The signed-in user, or the one whose session the remote ended: a `logout` forgets
    /// the user, the remote ending the session keeps who it was.
    public func writer() async -> String? {
        try? await keeper.current()?.user.id
    }

    /// Whether the signed-in user is the one the configuration names (`username` and
    /// `password`): it signs in by itself, so the work made here while nobody was signed
    /// in is its own. A person who signed in as someone else decides at their login.
    public func ownsSignedOutWork() async -> Bool {
        guard let username = settings.username, settings.password != nil,
            let session = try? await keeper.current(), session.isActive
        else { return false }
        return session.user.username == username
    }

    /// The member the user acts as (`ferry auth act-as`), or nil for themselves.
    public func actingAs() async -> String? {
        try? await keeper.current()?.actingAs
    }

    /// `X-Acting-As-Member` while the user acts as a managed member (docs/protocol.md).
    public func sessionHeaders() async -> [(name: String, value: String)] {
        guard let member = await actingAs() else { return [] }
        return [("X-Acting-As-Member", member)]
    }

    /// Signs in with the configured username and password when there is no session,
    /// or when the configured user's session ended. Nil when the remote refused them (400,
    /// 401, 403: a person must sign in). No answer is thrown as it came (`TransportFailure`);
    /// any other answer, or one that cannot be read, as `remote_unavailable`, so that the
    /// request that asked for a token is never judged by the sign-in's status.
    private func automaticLogin(replacing session: Session?) async throws -> String? {
        guard let username = settings.username, let password = settings.password else { return nil }
        if let session, session.user.username != username { return nil }
        do {
            return try await keeper.signInOnce(username: username, password: password)
        } catch let failure as RemoteFailure where SessionKeeper.refusals.contains(failure.status) {
            return nil
        } catch let failure as RemoteFailure {
            throw FerryError(.remoteUnavailable, "signing in as \(username) failed: the remote answered \(failure.status)", underlying: failure)
        } catch let failure as DecodingError {
            throw FerryError(.remoteUnavailable, "signing in as \(username) failed: its answer could not be read", underlying: failure)
        }
    }

    // MARK: Verification

    /// Verifies the session with the remote (`checkWithRemote`); a failure goes to the
    /// kernel, which holds for a login on a refusal and waits for connectivity on no answer.
    public func pull(_ context: PluginContext) async throws -> PullSummary {
        _ = try await accessToken()
        try await checkWithRemote()
        return PullSummary()
    }

    /// Confirmed: the cached user is refreshed. Refused (401, 403): the session ends and
    /// the refusal is thrown. No answer: thrown, and the session is kept.
    func checkWithRemote() async throws {
        guard let session = try await keeper.current(), session.isActive else { return }
        do {
            try await keeper.verified(user: try await client.me())
        } catch let failure as RemoteFailure where failure.status == 401 || failure.status == 403 {
            try await keeper.end()
            throw failure
        }
    }

    /// What the user sees in `ferry auth status`.
    public func status() async throws -> Session? {
        try await keeper.current()
    }
}
