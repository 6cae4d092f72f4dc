import Foundation

/// How much a `FileCache` may keep: a byte budget (least recently used unpinned files
/// go first) and an age after which unpinned files expire.
public struct TransferBudget: Sendable, Equatable {
    /// The most bytes of complete files kept; nil for no limit.
    public var maxBytes: Int64?
    /// How long an unpinned file is kept after it was downloaded; nil for ever.
    public var maxAge: TimeInterval?

    /// Creates a budget; a limit left nil does not apply.
    ///
    /// - Parameters:
    ///   - maxBytes: the most bytes of complete files kept.
    ///   - maxAge: how long, in seconds, an unpinned file is kept after it was downloaded.
    public init(maxBytes: Int64? = nil, maxAge: TimeInterval? = nil) {
        self.maxBytes = maxBytes
        self.maxAge = maxAge
    }

    /// No limit at all.
    public static let unlimited = TransferBudget()
}
