import Foundation

/// A read: fresh from the remote, or from the cache when there is no connection.
public struct Fetched<Value: Sendable>: Sendable {
    /// What was read.
    public var value: Value
    /// True when the value came from the local cache.
    public var fromCache: Bool
    /// When the cached value was fetched (for cached reads).
    public var fetchedAt: Date?
    /// Why the cache was used, for people.
    public var note: String?

    /// A read's result and where it came from.
    public init(value: Value, fromCache: Bool, fetchedAt: Date? = nil, note: String? = nil) {
        self.value = value
        self.fromCache = fromCache
        self.fetchedAt = fetchedAt
        self.note = note
    }
}

extension Fetched: Encodable where Value: Encodable {}
