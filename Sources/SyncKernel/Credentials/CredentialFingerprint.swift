/// A short, one-way fingerprint of a credential: enough to tell two tokens apart, never
/// enough to use one. The store keeps fingerprints, never tokens.
enum CredentialFingerprint {
    static func of(_ token: String) -> String {
        String(SHA256Hasher.hex(token).prefix(16))
    }
}
