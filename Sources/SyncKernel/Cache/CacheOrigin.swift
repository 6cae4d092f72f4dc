/// Where the value of a cached read came from.
public enum CacheOrigin: String, Codable, Sendable {
    /// The local store, as it was before any network request of this read.
    case cache
    /// The local store right after it was refreshed from the remote during this read.
    case network
}
