import Foundation

extension FileCache {
    /// Fails with `storage_unavailable` when the complete files left after eviction, the
    /// room held by the downloads `counting` that are still under way, and `size` do not
    /// fit in `maxBytes`. `counting` are the downloads that were under way when this one
    /// took its room: each pair of downloads is counted by exactly one of them (the later),
    /// so that two of them never refuse each other.
    ///
    /// Eviction removes complete unpinned files only. A download under way holds its room
    /// until it ends, even a file fetched ahead of use, which the budget would evict once
    /// complete: admitting a file beside it anyway put several files fetched at once (the
    /// operations of one delivery) past the cap. Refused, the file waits and goes again
    /// (`storage_unavailable` is transient), by when the other downloads have ended and
    /// what they fetched ahead can be evicted.
    func refuseIfStillFull(size: Int64, key: String, counting: Set<String>, maxBytes: Int64) async throws {
        let owner = self.owner
        let complete = try await store.read { db in
            try TransferIndex.usage(owner: owner, excluding: key, in: db).bytes
        }
        // Read after the last suspension: a download that ended since is among the complete
        // files (or gone), no longer under way.
        let reserved = reservations.filter { counting.contains($0.key) }.values.reduce(0) { $0 + $1.bytes }
        guard complete + reserved + size > maxBytes else { return }
        throw FerryError(
            .storageUnavailable,
            "\(key) (\(ByteCount(size))) does not fit yet: files kept or on their way use \(ByteCount(complete + reserved)) of the \(ByteCount(maxBytes)) limit; it goes again once downloads under way have ended"
        )
    }
}
