import SyncKernel

/// The runner's credentials, acting as the member recorded with an operation rather
/// than whoever the user acts as when the operation finally goes out.
struct ActingAsCredentials: CredentialProvider {
    let base: (any CredentialProvider)?
    let member: String?

    func accessToken() async throws -> String? { try await base?.accessToken() }

    func refreshAccessToken(rejected: String) async throws -> String? {
        try await base?.refreshAccessToken(rejected: rejected)
    }

    func account() async -> String? { await base?.account() }

    /// The session's headers, with the acting member recorded with the operation instead of
    /// the one of now.
    func sessionHeaders() async -> [(name: String, value: String)] {
        let others = await base?.sessionHeaders().filter { !ActingAs.isHeader($0.name) } ?? []
        return others + (member.map { [(ActingAs.header, $0)] } ?? [])
    }
}
