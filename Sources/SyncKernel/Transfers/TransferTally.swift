/// Downloads that finished, counted from `SyncEvent.transferred`: how many files, how many bytes.
public struct TransferTally: Sendable, Equatable {
    /// Files verified and put in place.
    public var files = 0
    /// Their bytes.
    public var bytes: Int64 = 0

    /// A tally of `files` files and `bytes` bytes; none by default.
    public init(files: Int = 0, bytes: Int64 = 0) {
        self.files = files
        self.bytes = bytes
    }

    /// Counts `event` when a download finished; false for any other event.
    @discardableResult
    public mutating func record(_ event: SyncEvent) -> Bool {
        guard case .transferred(_, let size) = event else { return false }
        files += 1
        bytes += size
        return true
    }
}

extension TransferTally: CustomStringConvertible {
    /// "downloaded 3 files (1.2 MB)".
    public var description: String {
        "downloaded \(files) file\(files == 1 ? "" : "s") (\(ByteCount(bytes)))"
    }
}
