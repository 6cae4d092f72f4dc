import Foundation

/// The answer of a read that went through a `CachePolicy`: the value, where it came from,
/// and whether it holds local writes that the remote has not seen yet.
///
/// A UI shows `hasPendingWrites` as a pending badge, `offline` as a quiet "offline,
/// showing saved data" line, and `remoteFailure` as "the server failed, showing saved data".
public struct CachedRead<Value: Sendable>: Sendable {
    /// The value read.
    public var value: Value
    /// Whether it came from the cache as it was, or from the cache just refreshed from the network.
    public var origin: CacheOrigin
    /// Whether the value includes local writes still waiting in the outbox.
    public var hasPendingWrites: Bool
    /// Why the network was not asked or did not answer, when that happened during this read.
    public var offline: String?
    /// Why the remote's answer was not used although it answered: a failure that may pass
    /// (a 5xx, a 429), during this read. Never described as offline.
    public var remoteFailure: String?

    /// Creates the answer of a read; `offline` is nil when the network answered or was
    /// not needed.
    public init(value: Value, origin: CacheOrigin, hasPendingWrites: Bool, offline: String? = nil) {
        self.value = value
        self.origin = origin
        self.hasPendingWrites = hasPendingWrites
        self.offline = offline
    }

    /// Whether the value came from the cache without a refresh.
    public var isFromCache: Bool { origin == .cache }
}

/// What the cache holds for a read: the value, and whether it includes local writes still
/// waiting in the outbox. Read both in one store access.
public struct CacheSnapshot<Value: Sendable>: Sendable {
    /// The value as the cache holds it.
    public var value: Value
    /// Whether the value includes local writes still waiting in the outbox.
    public var hasPendingWrites: Bool

    /// Creates a snapshot of what the cache holds.
    public init(value: Value, hasPendingWrites: Bool) {
        self.value = value
        self.hasPendingWrites = hasPendingWrites
    }
}
