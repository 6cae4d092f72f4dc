import Foundation

extension QueuedOperation {
    /// `If-Match: "<version>"` with the version the write was made on: the `version` of its
    /// base, the entity as the remote last sent it (docs/protocol.md §4). None when the base
    /// has no version (a new entity), or when a conflict was settled for this write and it
    /// goes unconditionally (`force`).
    public var ifMatch: [(String, String)] {
        guard !force, let base,
            let entity = try? JSONSerialization.jsonObject(with: base) as? [String: Any],
            let version = (entity["version"] as? NSNumber)?.intValue
        else { return [] }
        return [("If-Match", "\"\(version)\"")]
    }
}
