/// Checks the shape of an http(s) URL written in the configuration, by hand.
///
/// `URLComponents` would do, but reading its host decodes international names through
/// ICU, whose data takes a fraction of a millisecond to load: a cost every command paid
/// while reading `server:`. The HTTP client parses the URL again when it first uses it.
enum HTTPAddress {
    /// Whether `text` is `http://` or `https://` (any case), then a host (a name, an IPv4
    /// address or a bracketed IPv6 one), then optionally `:port`, then optionally a path,
    /// query or fragment; user information before an `@` is allowed.
    static func hasHost(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard let scheme = ["http://", "https://"].first(where: lower.hasPrefix) else { return false }
        let authority = text.dropFirst(scheme.count).prefix { !"/?#".contains($0) }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        let host: Substring
        let port: Substring
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { return false }
            host = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
            port = hostAndPort[hostAndPort.index(after: close)...]
        } else {
            host = hostAndPort.prefix { $0 != ":" }
            guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || "-._~%".contains($0) }) else {
                return false
            }
            port = hostAndPort.dropFirst(host.count)
        }
        guard !port.isEmpty else { return true }
        let digits = port.dropFirst()
        return port.first == ":" && !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
