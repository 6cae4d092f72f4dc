import SyncKernel

/// The runner's credentials, acting as the member recorded with an operation rather
/// than whoever the user acts as when the operation finally goes out.
struct ActingAsCredentials: CredentialProvider {
    let base: (any CredentialProvider)?
    let member: String?

    func accessToken() async -> String? { await base?.accessToken() }

    func refreshAccessToken(rejected: String) async throws -> String? {
        try await base?.refreshAccessToken(rejected: rejected)
    }

    func account() async -> String? { await base?.account() }

    func actingAs() async -> String? { member }
}
