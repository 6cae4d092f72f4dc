/// `plugins.auth` in config.yaml.
public struct AuthSettings: Codable, Sendable {
    /// Sign in with these when no session exists (for scripts and the embedded demo server).
    /// Use `${FERRY_PASSWORD}` rather than writing a real password into the file.
    public var username: String?
    public var password: String?
    /// The credential file; default `<data_dir>/auth/credentials.json`.
    public var credentialFile: String?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case username, password
        case credentialFile = "credential_file"
    }
}
