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
        defer { reservations[request.key] = nil }
        if let connectivity {
            let state = await connectivity.current()
            guard state.satisfies(request.requirement) else {
                throw FerryError(
                    .requiresConnection,
                    "downloading \(request.key) needs \(request.requirement == .unmetered ? "a connection that is not metered" : "a connection") (now \(state.summary)); it will be fetched when one is there"
                )
            }
        }
        guard request.url.hasPrefix("http://") || request.url.hasPrefix("https://") || request.url.hasPrefix("/") else {
            throw FerryError(
                .file,
                "cannot download \(request.key) from '\(request.url)': not an http(s) URL nor a path below the remote"
            )
        }
        if let expected = request.expectedBytes, !(0...(1 << 50)).contains(expected) {
            throw FerryError(.file, "cannot download \(request.key): its announced size (\(expected) bytes) is not a file size")
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
        if let expected = request.expectedBytes {
            try await makeRoom(for: expected, key: key, pinned: request.pinned, onDisk: row.bytes)
        }
        try await store.write { [row] db in try TransferIndex.save(row, owner: owner, in: db) }

        let events = self.events
        let progressRow = ProgressRecorder(store: store, owner: owner, key: key)
        let result: FileDownloader.Result
        do {
            result = try await downloader.download(
                request.url,
                headers: request.headers,
                into: partial,
                resumeETag: resumeETag,
                validator: { etag in await progressRow.recordValidator(etag) },
                stillAllowed: request.stillAllowed,
                progress: { received, total in
                    events?.emit(.transferProgress(name: key, received: received, total: total))
                    await progressRow.record(received)
                }
            )
        } catch {
            // No answer: connectivity looks again before the next download, which then
            // fails at once with `requires_connection` if the remote is still gone.
            if error is TransportFailure { await connectivity?.reportUnreachable() }
            // The partial file stays for a resume, with the validator its answer carried
            // (recorded when the answer's head came); an empty one goes.
            let bytes = FileDownloader.size(of: partial)
            if bytes == 0 {
                try? FileManager.default.removeItem(at: partial)
                try? await store.write { db in try TransferIndex.delete(owner: owner, key: key, in: db) }
            } else {
                await progressRow.record(bytes, always: true)
            }
            throw error
        }
        row.etag = result.etag ?? row.etag
        let size = FileDownloader.size(of: partial)
        if let expected = request.expectedBytes ?? result.total, size != expected {
            try await discard(row, partial: partial)
            throw Self.wrongSize(key: key, size: size, expected: expected)
        }
        var digest: String?
        if let wanted = request.sha256?.lowercased() {
            let found = try SHA256Hasher.hex(fileAt: partial)
            digest = found
            guard found == wanted else {
                try await discard(row, partial: partial)
                throw checksumMismatch(key: key, digest: found)
            }
        }
        mismatches[key] = nil
        if request.expectedBytes == nil {
            do {
                try await makeRoom(for: size, key: key, pinned: request.pinned, onDisk: size)
            } catch {
                try await discard(row, partial: partial)
                throw error
            }
        }
        let done = clock.now()
        row.state = TransferRow.complete
        row.bytes = size
        row.sha256 = digest
        row.createdAt = done
        switch request.use {
        case .now: row.accessedAt = done
        // A file fetched ahead of its use counts as never used until it is read.
        case .notYet: row.accessedAt = Date(timeIntervalSince1970: 0)
        case .at(let date): row.accessedAt = date
        }
        // The row first, then the file: a file is at its path only while a complete row
        // counts it against the budget. A crash in between leaves a row without a file,
        // which the next lookup forgets; the other order left a file no budget counted.
        do {
            try await store.write { [row] db in try TransferIndex.save(row, owner: owner, in: db) }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        guard rename(partial.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try await discard(row, partial: partial)
            throw FerryError(.file, "could not move the download of \(key) into \(target.path): \(reason)")
        }
        events?.emit(.transferred(name: key, bytes: size))
        try await enforceBudget(protecting: key)
        return CachedFile(
            key: key,
            url: target,
            bytes: size,
            sha256: digest,
            pinned: request.pinned,
            createdAt: done,
            accessedAt: row.accessedAt,
            downloaded: true
        )
    }

    /// Makes room for a file of `size` bytes (`onDisk` of them already written) before it
    /// is downloaded, and holds it (`reservations`) until the download ends: fails with
    /// `storage_unavailable` when pinned files, with the pinned downloads under way, leave
    /// no room for it in the budget; evicts unpinned files least recently used first until
    /// it fits beside the downloads under way, and fails when it still does not (the room
    /// is held by downloads under way, which cannot be evicted before they end); fails when
    /// the disk has less free space than the rest of the file needs. A partial file stays
    /// for a later resume.
    private func makeRoom(for size: Int64, key: String, pinned: Bool, onDisk: Int64) async throws {
        // Counted and held before the first suspension, so that downloads checking at the
        // same time see each other: the later one counts the earlier one's room.
        let othersKeys = reservations.keys.filter { $0 != key }
        let others = reservations.filter { $0.key != key }.values
        let reservedPinned = others.filter(\.pinned).reduce(0) { $0 + $1.bytes }
        let reserved = others.reduce(0) { $0 + $1.bytes }
        reservations[key] = (size, pinned)
        if let maxBytes = budget.maxBytes {
            let owner = self.owner
            let (complete, totalBytes) = try await store.read { db in
                let others = try TransferIndex.usage(owner: owner, excluding: key, in: db)
                return (others.pinnedBytes, others.bytes)
            }
            let pinnedBytes = complete + reservedPinned
            guard pinnedBytes + size <= maxBytes else {
                throw FerryError(
                    .storageUnavailable,
                    "\(key) (\(ByteCount(size))) does not fit: kept files (with those on their way) already use \(ByteCount(pinnedBytes)) of the \(ByteCount(maxBytes)) limit; remove some of them or raise the limit"
                )
            }
            if totalBytes + reserved + size > maxBytes {
                _ = try await evict(toFit: maxBytes - size - reserved, protecting: key)
                try await refuseIfStillFull(size: size, key: key, counting: Set(othersKeys), maxBytes: maxBytes)
            }
        }
        let free = Self.freeDiskBytes(at: root)
        if let free, size - onDisk > free {
            throw FerryError(
                .storageUnavailable,
                "\(key) needs \(ByteCount(size - onDisk)) more on disk and \(root.path) has \(ByteCount(free)) free; free some space and try again"
            )
        }
    }

    /// The bytes free for an unprivileged user on the file system of `folder` (or of its
    /// nearest existing parent); nil when that cannot be read.
    static func freeDiskBytes(at folder: URL) -> Int64? {
        var url = folder
        while !FileManager.default.fileExists(atPath: url.path), url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
        }
        var stats = statvfs()
        guard statvfs(url.path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }

    private func discard(_ row: TransferRow, partial: URL) async throws {
        try? FileManager.default.removeItem(at: partial)
        let owner = self.owner
        try await store.write { db in try TransferIndex.delete(owner: owner, key: row.key, in: db) }
    }

    private func createFolder(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: folder,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw FerryError(
                .file,
                "cannot create the folder \(folder.path): \(error.localizedDescription); check its permissions",
                underlying: error
            )
        }
    }
}

/// Records how far a download got in its row (at most every mebibyte while it runs, and
/// when it stops), so that another process (`ferry audio downloads --watch`) sees the
/// progress of a runner's transfers and a resume starts from the right place.
private actor ProgressRecorder {
    let store: FerryStore
    let owner: String
    let key: String
    private var recorded: Int64 = 0

    init(store: FerryStore, owner: String, key: String) {
        self.store = store
        self.owner = owner
        self.key = key
    }

    func record(_ bytes: Int64, always: Bool = false) async {
        guard always || bytes - recorded >= 1 << 20 else { return }
        recorded = bytes
        let (owner, key) = (self.owner, self.key)
        try? await store.write { db in
            try db.execute(
                sql: "UPDATE kernel_transfers SET bytes = ? WHERE owner = ? AND key = ? AND state = 'partial'",
                arguments: [bytes, owner, key]
            )
        }
    }

    /// Records the validator (`ETag`) of the answer now streaming, so that a resume after a
    /// failure or a crash asks with `If-Range` for the same file.
    func recordValidator(_ etag: String?) async {
        let (owner, key) = (self.owner, self.key)
        try? await store.write { db in
            try db.execute(
                sql: "UPDATE kernel_transfers SET etag = ? WHERE owner = ? AND key = ? AND state = 'partial'",
                arguments: [etag, owner, key]
            )
        }
    }
}
