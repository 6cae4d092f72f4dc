import Foundation

/// A complete, verified file in a `FileCache`.
public struct CachedFile: Sendable, Equatable {
    /// Its name in the cache.
    public var key: String
    /// Where it is on disk.
    public var url: URL
    /// Its size in bytes.
    public var bytes: Int64
    /// Its SHA-256 (hex), when it was verified against one.
    public var sha256: String?
    /// Never evicted nor expired.
    public var pinned: Bool
    /// When it was downloaded.
    public var createdAt: Date
    /// When it was last read from the cache.
    public var accessedAt: Date
    /// Whether this call downloaded it (false: it was served from the cache).
    public var downloaded: Bool

    /// Creates a description of a cached file; the cache builds these, tests and fakes may too.
    ///
    /// - Parameters:
    ///   - key: its name in the cache.
    ///   - url: where it is on disk.
    ///   - bytes: its size in bytes.
    ///   - sha256: its SHA-256 (hex), when it was verified against one.
    ///   - pinned: whether it is never evicted nor expired.
    ///   - createdAt: when it was downloaded.
    ///   - accessedAt: when it was last read from the cache.
    ///   - downloaded: whether this call downloaded it.
    public init(
        key: String,
        url: URL,
        bytes: Int64,
        sha256: String?,
        pinned: Bool,
        createdAt: Date,
        accessedAt: Date,
        downloaded: Bool
    ) {
        self.key = key
        self.url = url
        self.bytes = bytes
        self.sha256 = sha256
        self.pinned = pinned
        self.createdAt = createdAt
        self.accessedAt = accessedAt
        self.downloaded = downloaded
    }
}
