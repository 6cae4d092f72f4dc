/// What a `FileCache` holds, for `usage` commands and status lines.
public struct FileCacheUsage: Sendable, Equatable, Codable {
    /// Complete files.
    public var files: Int
    /// Their bytes.
    public var bytes: Int64
    /// Pinned (explicitly downloaded) files among them.
    public var pinnedFiles: Int
    /// Their bytes.
    public var pinnedBytes: Int64
    /// Bytes of interrupted downloads waiting to resume.
    public var partialBytes: Int64
    /// The budget, if any.
    public var maxBytes: Int64?
    /// The age limit in seconds, if any.
    public var maxAgeSeconds: Double?

    /// Creates a usage report.
    ///
    /// - Parameters:
    ///   - files: the number of complete files.
    ///   - bytes: their bytes.
    ///   - pinnedFiles: the number of pinned files among them.
    ///   - pinnedBytes: their bytes.
    ///   - partialBytes: bytes of interrupted downloads.
    ///   - maxBytes: the byte budget, or nil for none.
    ///   - maxAgeSeconds: the age limit in seconds, or nil for none.
    public init(
        files: Int,
        bytes: Int64,
        pinnedFiles: Int,
        pinnedBytes: Int64,
        partialBytes: Int64,
        maxBytes: Int64?,
        maxAgeSeconds: Double?
    ) {
        self.files = files
        self.bytes = bytes
        self.pinnedFiles = pinnedFiles
        self.pinnedBytes = pinnedBytes
        self.partialBytes = partialBytes
        self.maxBytes = maxBytes
        self.maxAgeSeconds = maxAgeSeconds
    }
}
