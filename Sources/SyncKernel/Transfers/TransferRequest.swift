import Foundation

/// One file to bring into a `FileCache`: where it comes from, where it goes, and how
/// to know it arrived whole.
public struct TransferRequest: Sendable {
    /// The file's name in the cache (unique per cache); also the name in progress events.
    public var key: String
    /// What to download: a path below the remote of the cache's transport (such as
    /// `/v1/audio/files/a.wav`, which carries the runner's credentials), or an absolute
    /// http(s) URL (a third party's, which carries none).
    public var url: String
    /// Where the file lives, relative to the cache's folder. May come from the remote:
    /// it is resolved with `TransferPath.resolve`, never used as it is.
    public var relativePath: String
    /// The size the file must have, when known in advance.
    public var expectedBytes: Int64?
    /// The SHA-256 (hex) the file must have, when known.
    public var sha256: String?
    /// Explicitly wanted: never evicted by the byte budget nor expired by age.
    public var pinned: Bool
    /// The network the download needs. When the cache's connectivity monitor says it does
    /// not hold (offline, or a metered link for `unmetered`), `fetch` throws
    /// `requires_connection` without downloading.
    public var requirement: NetworkRequirement
    /// Extra request headers; never logged. Credentials come from the cache's transport.
    public var headers: [(String, String)]
    /// Asked about every mebibyte while the file streams: false stops the download (a link
    /// that turned metered), keeping the partial file for a resume, with a
    /// `requires_connection` error. Nil: the download runs to its end.
    public var stillAllowed: (@Sendable () async -> Bool)?
    /// When the file counts as last used once downloaded, for the least-recently-used
    /// order: `.now` (a poster shown now, the default), `.notYet` (a track fetched ahead:
    /// the first to be evicted among unpinned files until `FileCache.cachedFile` reads it),
    /// or `.at(date)` (a track played while it was on its way).
    public var use: Use

    /// Creates a request; `relativePath` defaults to `key`.
    ///
    /// - Parameters:
    ///   - key: the file's name in the cache, unique per cache.
    ///   - url: a path below the transport's remote, or an absolute http(s) URL.
    ///   - relativePath: where the file goes below the cache's folder; `key` when nil.
    ///   - expectedBytes: the size the file must have, when known.
    ///   - sha256: the SHA-256 (hex, any case) the file must have, when known.
    ///   - pinned: whether the file is explicitly wanted, so never evicted nor expired.
    ///   - requirement: the network the download needs.
    ///   - headers: extra request headers, never logged.
    ///   - use: when the file counts as last used once downloaded.
    ///   - stillAllowed: asked about every mebibyte; false stops the download for a resume.
    public init(
        key: String,
        url: String,
        relativePath: String? = nil,
        expectedBytes: Int64? = nil,
        sha256: String? = nil,
        pinned: Bool = false,
        requirement: NetworkRequirement = .network,
        headers: [(String, String)] = [],
        use: Use = .now,
        stillAllowed: (@Sendable () async -> Bool)? = nil
    ) {
        self.key = key
        self.url = url
        self.relativePath = relativePath ?? key
        self.expectedBytes = expectedBytes
        self.sha256 = sha256
        self.pinned = pinned
        self.requirement = requirement
        self.headers = headers
        self.use = use
        self.stillAllowed = stillAllowed
    }

    /// When a downloaded file counts as last used.
    public enum Use: Sendable, Equatable {
        /// When the download finishes.
        case now
        /// Never, until it is read: it goes first when room is needed.
        case notYet
        /// At this time (a use that came while the file was on its way).
        case at(Date)
    }
}
