/// What a sweep (eviction, expiry or purge) removed.
public struct RemovalReport: Sendable, Equatable, Codable {
    /// The keys of the files removed, in the order they went.
    public var keys: [String]
    /// Their bytes, counted as the index recorded them.
    public var bytes: Int64

    /// Creates a report; the default is one that removed nothing.
    ///
    /// - Parameters:
    ///   - keys: the keys of the files removed, in order.
    ///   - bytes: their bytes.
    public init(keys: [String] = [], bytes: Int64 = 0) {
        self.keys = keys
        self.bytes = bytes
    }
}
