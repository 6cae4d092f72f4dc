import SyncKernel
import Synchronization

/// Credentials a test signs out and in again: the token can be taken away and given back.
final class SwitchableCredentials: CredentialProvider {
    private let token: Mutex<String?>
    let user: String

    init(token: String?, account: String) {
        self.token = Mutex(token)
        self.user = account
    }

    func signOut() { token.withLock { $0 = nil } }
    func signIn(_ newToken: String) { token.withLock { $0 = newToken } }

    func accessToken() async -> String? { token.withLock { $0 } }
    func refreshAccessToken(rejected: String) async -> String? { nil }
    func account() async -> String? { user }
}
