/// What a sweep (eviction, expiry or purge) removed.
public struct RemovalReport: Sendable, Equatable, Codable {
    /// The keys of the files removed, in the order they went.
    public var keys: [String]
    /// Their bytes.
    public var bytes: Int64

    /// Creates a report.
    public init(keys: [String] = [], bytes: Int64 = 0) {
        self.keys = keys
        self.bytes = bytes
    }
}
