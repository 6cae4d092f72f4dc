import SyncKernel
import Synchronization

/// Credentials a test controls: a token, what a refresh returns, and a count of refreshes.
public final class StaticCredentials: CredentialProvider {
    private struct State {
        var token: String?
        var refreshed: String?
        var refreshCount = 0
        var account: String?
        var sessionHeaders: [(name: String, value: String)] = []
    }

    private let state: Mutex<State>

    public init(token: String?, refreshesTo refreshed: String? = nil, account: String? = nil) {
        state = Mutex(State(token: token, refreshed: refreshed, account: account))
    }

    public var refreshCount: Int { state.withLock { $0.refreshCount } }

    /// Replaces the token, as a login in another process would.
    public func setToken(_ token: String?) { state.withLock { $0.token = token } }
    public func setAccount(_ account: String?) { state.withLock { $0.account = account } }
    /// Signs `account` in with `token`, both at once, as a login on the device would.
    public func signIn(_ token: String, as account: String) {
        state.withLock { state in
            state.token = token
            state.account = account
        }
    }
    /// Signs out: no token and no account, both at once.
    public func signOut() {
        state.withLock { state in
            state.token = nil
            state.account = nil
        }
    }
    /// Replaces the headers sent with every authenticated request.
    public func setSessionHeaders(_ headers: [(name: String, value: String)]) {
        state.withLock { $0.sessionHeaders = headers }
    }
    public func setRefreshResult(_ token: String?) { state.withLock { $0.refreshed = token } }

    public func accessToken() async -> String? { state.withLock { $0.token } }

    public func refreshAccessToken(rejected: String) async throws -> String? {
        state.withLock { state in
            state.refreshCount += 1
            if let refreshed = state.refreshed { state.token = refreshed }
            return state.refreshed
        }
    }

    public func account() async -> String? { state.withLock { $0.account } }
    public func sessionHeaders() async -> [(name: String, value: String)] { state.withLock { $0.sessionHeaders } }
}
