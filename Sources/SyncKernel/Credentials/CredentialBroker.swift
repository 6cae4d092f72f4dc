import Synchronization

/// The credential provider every transport holds: it forwards to whichever plugin
/// offers credentials once plugins are built, and answers "nobody" before that.
final class CredentialBroker: CredentialProvider {
    private let provider = Mutex<(any CredentialProvider)?>(nil)

    func install(_ newValue: (any CredentialProvider)?) {
        provider.withLock { $0 = newValue }
    }

    private var current: (any CredentialProvider)? { provider.withLock { $0 } }

    /// Whether a plugin that signs in is enabled.
    var hasProvider: Bool { current != nil }

    func accessToken() async throws -> String? { try await current?.accessToken() }

    func refreshAccessToken(rejected: String) async throws -> String? {
        try await current?.refreshAccessToken(rejected: rejected)
    }

    func account() async -> String? { await current?.account() }

    func writer() async -> String? { await current?.writer() }

    func ownsSignedOutWork() async -> Bool { await current?.ownsSignedOutWork() ?? false }

    func sessionHeaders() async -> [(name: String, value: String)] { await current?.sessionHeaders() ?? [] }
}
