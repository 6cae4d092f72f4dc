import Foundation

/// Checks a request path's percent-decoded segments (no traversal) and parses query strings.
enum PathSegments {
    /// Throws a 400 `invalid_path` for a segment that is `.`/`..` once decoded, for encoded
    /// slashes, backslashes, NUL or undecodable escapes.
    static func check(_ path: String) throws(APIError) {
        for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = decoded(raw) else { throw invalid(path, "undecodable percent escape") }
            // Byte by byte: `String.contains` with a string goes through Foundation's search.
            if decoded == "." || decoded == ".."
                || decoded.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 })
            {
                throw invalid(path, "path segments may not be '.', '..' or contain slashes, backslashes or NUL")
            }
        }
    }

    /// `segment` percent-decoded; nil when an escape does not decode. Most segments have no
    /// escape, and Foundation's decoding is slow enough to show on every request.
    static func decoded(_ segment: Substring) -> String? {
        segment.utf8.contains(UInt8(ascii: "%")) ? String(segment).removingPercentEncoding : String(segment)
    }

    private static func invalid(_ path: String, _ reason: String) -> APIError {
        APIError.badRequest("invalid_path", "Invalid path: \(reason).", details: ["reason": .string(reason)])
    }

    /// Parses a query string into decoded name/value pairs (`+` is a space).
    static func query(_ query: String?) -> [String: String] {
        guard let query, !query.isEmpty else { return [:] }
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            guard let name = parts.first else { continue }
            result[decode(name)] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return result
    }
}
