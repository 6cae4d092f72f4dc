import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileCache {
    /// Downloads, verifies and moves one file into place, then keeps the budget.
    func download(_ request: TransferRequest) async throws -> CachedFile {
        if let connectivity {
            let state = await connectivity.current()
            guard state.satisfies(request.requirement) else {
                throw FerryError(
                    .requiresConnection,
                    "downloading \(request.key) needs \(request.requirement == .unmetered ? "a connection that is not metered" : "a connection") (now \(state.summary)); it will be fetched when one is there"
                )
            }
        }
        guard request.url.hasPrefix("http://") || request.url.hasPrefix("https://") else {
            throw FerryError(.file, "cannot download \(request.key) from '\(request.url)': not an http(s) URL")
        }
        let target = try TransferPath.resolve(request.relativePath, under: root)
        let partial = TransferPath.partial(for: target)
        try createFolder(target.deletingLastPathComponent())
        let owner = self.owner
        let key = request.key
        let now = clock.now()
        let previous = try await store.read { db in try TransferIndex.row(owner: owner, key: key, in: db) }
        var resumeETag: String?
        if let previous, previous.state == TransferRow.partial, previous.path == request.relativePath,
            previous.url == request.url
        {
            resumeETag = previous.etag
        } else {
            try? FileManager.default.removeItem(at: partial)
        }
        var row = TransferRow(
            key: key,
            path: request.relativePath,
            url: request.url,
            state: TransferRow.partial,
            bytes: FileDownloader.size(of: partial),
            sha256: nil,
            etag: resumeETag,
            pinned: request.pinned,
            createdAt: now,
            accessedAt: now
        )
        try await store.write { [row] db in try TransferIndex.save(row, owner: owner, in: db) }

        let events = self.events
        let result: FileDownloader.Result
        do {
            result = try await downloader.download(
                request.url,
                headers: request.headers,
                into: partial,
                resumeETag: resumeETag,
                progress: { received, total in
                    events?.emit(.transferProgress(name: key, received: received, total: total))
                }
            )
        } catch {
            row.bytes = FileDownloader.size(of: partial)
            if row.bytes == 0 {
                try? FileManager.default.removeItem(at: partial)
                try? await store.write { db in try TransferIndex.delete(owner: owner, key: key, in: db) }
            } else {
                try? await store.write { [row] db in try TransferIndex.save(row, owner: owner, in: db) }
            }
            throw error
        }
        row.etag = result.etag ?? row.etag
        let size = FileDownloader.size(of: partial)
        if let expected = request.expectedBytes ?? result.total, size != expected {
            try await discard(row, partial: partial)
            throw FerryError(
                .file,
                "the download of \(key) has \(size) bytes where \(expected) were expected; it was discarded and will be fetched again"
            )
        }
        var digest: String?
        if let wanted = request.sha256?.lowercased() {
            digest = try SHA256Hasher.hex(fileAt: partial)
            guard digest == wanted else {
                try await discard(row, partial: partial)
                throw FerryError(
                    .file,
                    "the download of \(key) does not match its SHA-256 checksum; it was discarded and will be fetched again"
                )
            }
        }
        try await makeRoom(for: size, key: key, pinned: request.pinned, partial: partial, row: row)
        guard rename(partial.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try await discard(row, partial: partial)
            throw FerryError(.file, "could not move the download of \(key) into \(target.path): \(reason)")
        }
        let done = clock.now()
        row.state = TransferRow.complete
        row.bytes = size
        row.sha256 = digest
        row.createdAt = done
        row.accessedAt = done
        try await store.write { [row] db in try TransferIndex.save(row, owner: owner, in: db) }
        try await enforceBudget(protecting: key)
        return CachedFile(
            key: key,
            url: target,
            bytes: size,
            sha256: digest,
            pinned: request.pinned,
            createdAt: done,
            accessedAt: done,
            downloaded: true
        )
    }

    /// Fails when pinned files leave no room for `size` more bytes; unpinned files are
    /// evicted after the move.
    private func makeRoom(for size: Int64, key: String, pinned: Bool, partial: URL, row: TransferRow) async throws {
        guard let maxBytes = budget.maxBytes else { return }
        let owner = self.owner
        let pinnedBytes = try await store.read { db in
            try Int64.fetchOne(
                db,
                sql:
                    "SELECT COALESCE(SUM(bytes), 0) FROM kernel_transfers WHERE owner = ? AND state = 'complete' AND pinned = 1 AND key != ?",
                arguments: [owner, key]
            ) ?? 0
        }
        guard pinnedBytes + size <= maxBytes else {
            try await discard(row, partial: partial)
            throw FerryError(
                .storageUnavailable,
                "\(key) (\(ByteCount(size))) does not fit: pinned files already use \(ByteCount(pinnedBytes)) of the \(ByteCount(maxBytes)) budget; remove some pinned files or raise the limit"
            )
        }
    }

    private func discard(_ row: TransferRow, partial: URL) async throws {
        try? FileManager.default.removeItem(at: partial)
        let owner = self.owner
        try await store.write { db in try TransferIndex.delete(owner: owner, key: row.key, in: db) }
    }

    private func createFolder(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FerryError(
                .file,
                "cannot create the folder \(folder.path): \(error.localizedDescription); check its permissions",
                underlying: error
            )
        }
    }
}
