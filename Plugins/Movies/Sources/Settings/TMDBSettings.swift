import SyncKernel

/// Where the TMDB API v3 is and how to authenticate to it.
///
/// `url` and `image_base` are absolute (`https://api.themoviedb.org/3`,
/// `https://image.tmdb.org`) or paths on the configured `server` (`/tmdb/3`, `/tmdb`):
/// the reference server speaks the same subset there.
public struct TMDBSettings: Codable, Sendable {
    /// The API base: `/tmdb/3` on the Ferry server, or `https://api.themoviedb.org/3`.
    public var url: String
    /// The image base, before `/t/p/<size>/<file>`: `/tmdb`, or `https://image.tmdb.org`.
    public var imageBase: String
    /// The API read access token (bearer) or API key; never printed.
    public var token: String
    /// How the token is sent: `bearer` (an `Authorization` header) or `api_key` (a query parameter).
    public var auth: Auth
    /// The longest `Retry-After` the client waits out by itself after a 429; longer waits
    /// go back to the outbox, which retries when the time has come.
    public var maxRetryWait: Seconds

    /// How the token is sent.
    public enum Auth: String, Codable, Sendable, CaseIterable {
        /// `Authorization: Bearer <token>` (TMDB's "API Read Access Token").
        case bearer
        /// `?api_key=<token>` (TMDB's "API Key").
        case apiKey = "api_key"
    }

    /// The shipped defaults: the reference server's TMDB subset and its demo token.
    public init() {
        url = "/tmdb/3"
        imageBase = "/tmdb"
        token = "ferry-demo-tmdb-token"
        auth = .bearer
        maxRetryWait = 10
    }

    enum CodingKeys: String, CodingKey {
        case url
        case imageBase = "image_base"
        case token, auth
        case maxRetryWait = "max_retry_wait"
    }

    public init(from decoder: any Decoder) throws {
        let defaults = TMDBSettings()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decodeIfPresent(String.self, forKey: .url) ?? defaults.url
        imageBase = try container.decodeIfPresent(String.self, forKey: .imageBase) ?? defaults.imageBase
        token = try container.decodeIfPresent(String.self, forKey: .token) ?? defaults.token
        auth = try container.decodeIfPresent(Auth.self, forKey: .auth) ?? defaults.auth
        maxRetryWait = try container.decodeIfPresent(Seconds.self, forKey: .maxRetryWait) ?? defaults.maxRetryWait
        for (key, value) in [(CodingKeys.url, url), (.imageBase, imageBase)] where !Self.isBase(value) {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: container,
                debugDescription:
                    "'\(value)' is not a base URL; write an http(s) URL or a path on the server such as /tmdb/3"
            )
        }
    }

    static func isBase(_ value: String) -> Bool {
        value.hasPrefix("https://") || value.hasPrefix("http://") || (value.hasPrefix("/") && !value.contains(".."))
    }
}
