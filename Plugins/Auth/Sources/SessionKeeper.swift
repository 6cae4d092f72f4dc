import Foundation
import Logging
import SyncKernel

/// Owns the session: keeps it in the credential store, renews it one refresh at a time
/// (across processes too, with a lock file), and ends it only when the remote says so.
actor SessionKeeper {
    let store: any CredentialStore
    let client: AuthClient
    let clock: any KernelClock
    let lockPath: String
    let logger: Logger
    private var session: Session?
    private var loadedRevision: Date?
    private var refreshing: Task<String?, any Error>?
    private var signingIn: Task<String?, any Error>?
    /// When the remote last refused the configured username and password: automatic
    /// sign-ins pause for `refusedSignInPause` after it, instead of asking on every pass.
    private var signInRefusedAt: Date?
    static let refusedSignInPause: TimeInterval = 300
    /// The statuses with which the remote refuses a sign-in or a refresh: the credentials
    /// are wrong or the session is over, and a person must sign in.
    static let refusals: Set<Int> = [400, 401, 403]

    init(store: any CredentialStore, client: AuthClient, clock: any KernelClock, lockPath: String, logger: Logger) {
        self.store = store
        self.client = client
        self.clock = clock
        self.lockPath = lockPath
        self.logger = logger
    }

    /// The credential file's revision when its last error was logged.
    private var reportedRevision: Date??

    /// Logs an error of the credential file once per revision of the file, not on every
    /// request that asks for the token.
    func report(_ error: any Error) {
        let revision = store.revision()
        guard reportedRevision != .some(revision) else { return }
        reportedRevision = .some(revision)
        logger.error("\(error)")
    }

    /// The current session, re-read when another process changed the file.
    func current() throws -> Session? {
        let revision = store.revision()
        if loadedRevision == nil || revision != loadedRevision {
            session = try store.load().map(decode)
            loadedRevision = revision
        }
        return session
    }

    /// The session in the stored bytes; a file that is not one (damaged, truncated, written
    /// by something else) is a `needs_login` error naming the file, never a raw decoding error.
    private func decode(_ data: Data) throws -> Session {
        do {
            return try JSONDecoder.ferry.decode(Session.self, from: data)
        } catch {
            let file = (store as? FileCredentialStore)?.path ?? "the credential store"
            throw FerryError(
                .needsLogin,
                "the credential file \(file) is damaged (it is not a saved session); signing in again replaces it",
                remedy: .signIn
            )
        }
    }

    func save(_ newValue: Session?) throws {
        if let newValue {
            try store.save(try JSONEncoder.ferry.encode(newValue))
        } else {
            try store.delete()
        }
        session = newValue
        loadedRevision = store.revision()
    }

    /// Signs in and stores the new session.
    func login(username: String, password: String) async throws -> Session {
        let session = Self.session(from: try await client.login(username: username, password: password), now: clock.now())
        try save(session)
        return session
    }

    /// Signs in as `username` unless a session of that user already has a token, one sign-in
    /// at a time: concurrent callers share it, and another process's sign-in (under the
    /// same lock file as refreshes) is adopted instead of repeated. Returns the token.
    func signInOnce(username: String, password: String) async throws -> String? {
        if let signingIn { return try await signingIn.value }
        let task = Task.apart { try await self.performSignIn(username: username, password: password) }
        signingIn = task
        defer { signingIn = nil }
        return try await task.value
    }

    private func performSignIn(username: String, password: String) async throws -> String? {
        let lock = try FileLock(path: lockPath)
        defer { lock.release() }
        loadedRevision = nil
        // A damaged credential file is no session: the sign-in replaces it.
        if let session = try? current(), session.user.username == username, let token = session.accessToken {
            return token
        }
        if let refused = signInRefusedAt, clock.now() < refused.addingTimeInterval(Self.refusedSignInPause) {
            return nil
        }
        do {
            let token = try await login(username: username, password: password).accessToken
            signInRefusedAt = nil
            return token
        } catch let failure as RemoteFailure where Self.refusals.contains(failure.status) {
            signInRefusedAt = clock.now()
            logger.warning("the remote refused the configured username and password for \(username); check plugins.auth in config.yaml, or run `ferry auth login`")
            throw failure
        }
    }

    /// Renews the access token after `rejected` was refused; nil when the remote ended the session.
    func refresh(rejected: String) async throws -> String? {
        guard let session = try current(), let token = session.accessToken else { return nil }
        if token != rejected { return token }
        if let refreshing { return try await refreshing.value }
        let task = Task.apart { try await self.performRefresh(rejected: rejected) }
        refreshing = task
        defer { refreshing = nil }
        return try await task.value
    }

    private func performRefresh(rejected: String) async throws -> String? {
        let lock = try FileLock(path: lockPath)
        defer { lock.release() }
        loadedRevision = nil
        guard let session = try current(), let refreshToken = session.refreshToken else { return nil }
        if let token = session.accessToken, token != rejected { return token }
        do {
            var renewed = Self.session(from: try await client.refresh(refreshToken: refreshToken), now: clock.now())
            renewed.actingAs = session.actingAs
            try save(renewed)
            return renewed.accessToken
        } catch let failure as RemoteFailure where Self.refusals.contains(failure.status) {
            logger.warning("the session of \(session.user.username) was ended by the remote; log in again")
            try end()
            return nil
        }
    }

    /// Drops the tokens, keeps who it was.
    func end() throws {
        guard var session = try current() else { return }
        session.accessToken = nil
        session.refreshToken = nil
        session.accessExpiresAt = nil
        session.refreshExpiresAt = nil
        try save(session)
    }

    /// Records a successful check with the remote.
    func verified(user: Session.User) throws {
        guard var session = try current(), session.isActive else { return }
        session.user = user
        session.verifiedAt = clock.now()
        try save(session)
    }

    func setActingAs(_ member: String?) throws -> Session {
        guard var session = try current(), session.isActive else {
            throw FerryError(.needsLogin, "nobody is signed in; run `ferry auth login` first")
        }
        session.actingAs = member
        try save(session)
        return session
    }

    static func session(from answer: TokenAnswer, now: Date) -> Session {
        Session(
            user: answer.user,
            accessToken: answer.accessToken,
            refreshToken: answer.refreshToken,
            accessExpiresAt: now.addingTimeInterval(answer.expiresIn),
            refreshExpiresAt: now.addingTimeInterval(answer.refreshExpiresIn),
            verifiedAt: now,
            actingAs: nil
        )
    }
}
