import Foundation
import GRDB
import Logging

/// The kernel's file service: downloads files into a folder, verifies them, keeps them
/// within a byte budget and an age, and serves them locally afterwards.
///
/// A download streams into a temporary file beside its target (`.name.part`), is checked
/// against its expected length (and SHA-256 when known), and only then renamed into place,
/// so a failed transfer never leaves a partial file at the final path. An interrupted
/// download resumes with `Range` (guarded by `If-Range` with the first answer's ETag).
/// Progress goes out as `SyncEvent.transferProgress`. Pinned files (explicitly wanted)
/// are never evicted nor expired; the others are evicted least recently used first when
/// the budget is exceeded, and expire `maxAge` after they were downloaded.
///
/// Several caches share the `kernel_transfers` table, each under its own `owner`
/// (`movies.posters`, `audio.tracks`).
///
/// ```swift
/// let posters = FileCache(owner: "movies.posters", root: dir, store: store,
///                         budget: TransferBudget(maxBytes: 500_000_000, maxAge: 90 * 86_400), clock: clock,
///                         transport: context.transport)
/// let file = try await posters.fetch(TransferRequest(key: "949", url: url, relativePath: "w342/949.png"))
/// ```
public actor FileCache {
    /// The name that scopes this cache's rows in `kernel_transfers`.
    public nonisolated let owner: String
    /// The folder every file lives under.
    public nonisolated let root: URL
    /// The byte budget and age limit.
    public nonisolated let budget: TransferBudget
    let store: FerryStore
    let clock: any KernelClock
    let events: EventBus?
    let connectivity: (any ConnectivityMonitor)?
    let logger: Logger
    let downloader: FileDownloader
    private var inFlight: [String: Task<CachedFile, any Error>] = [:]
    /// The room held for downloads under way, by key: counted by every other download's
    /// room check until the file is in place (or failed).
    var reservations: [String: (bytes: Int64, pinned: Bool)] = [:]
    /// The SHA-256 of the last download of each key that did not match its checksum
    /// (`checksumMismatch`): the same content twice in a row is the remote's own file.
    var mismatches: [String: String] = [:]

    /// Creates a cache of files under `root`, indexed in `store` under `owner`.
    ///
    /// Creating it touches neither the disk nor the store; folders are created as files
    /// arrive.
    ///
    /// - Parameters:
    ///   - owner: the name that scopes this cache's rows in `kernel_transfers`, such as
    ///     `movies.posters`; two caches with the same owner see each other's files.
    ///   - root: the folder every file lives under; requests' relative paths resolve below it.
    ///   - store: the store whose `kernel_transfers` table indexes the files.
    ///   - budget: the byte budget and age limit; unlimited unless given.
    ///   - clock: what stamps downloads and uses, and decides when files expire.
    ///   - events: receives `transferProgress` events.
    ///   - connectivity: asked before each download, so that forced offline mode and
    ///     `unmetered` requirements hold; nil downloads whenever asked.
    ///   - transport: what puts downloads on the wire (a plugin passes its context's): paths
    ///     resolve against its remote, with its credentials.
    ///   - logger: receives a debug line when files are evicted or expire.
    public init(
        owner: String,
        root: URL,
        store: FerryStore,
        budget: TransferBudget = .unlimited,
        clock: any KernelClock = SystemClock(),
        events: EventBus? = nil,
        connectivity: (any ConnectivityMonitor)? = nil,
        transport: HTTPTransport,
        logger: Logger = Logger(label: "ferry.transfers")
    ) {
        self.downloader = FileDownloader(transport: transport)
        self.owner = owner
        self.root = root
        self.store = store
        self.budget = budget
        self.clock = clock
        self.events = events
        self.connectivity = connectivity
        self.logger = logger
    }

    /// The cached file under `key`, or nil when there is none (or it expired, or its
    /// file disappeared). A hit counts as a use for the least-recently-used order unless
    /// `use` is false (a look that is no use: listing what would play).
    public func cachedFile(_ key: String, use: Bool = true) async throws -> CachedFile? {
        let owner = self.owner
        guard let row = try await store.read({ db in try TransferIndex.row(owner: owner, key: key, in: db) }),
            row.state == TransferRow.complete
        else { return nil }
        let now = clock.now()
        let url = try TransferPath.resolve(row.path, under: root)
        if isExpired(row, now: now) || !FileManager.default.fileExists(atPath: url.path) {
            // A download of the key that is being moved into place has its row already.
            if inFlight[key] == nil { try await remove(row) }
            return nil
        }
        if use { try await store.write { db in try TransferIndex.touch(owner: owner, key: key, at: now, in: db) } }
        return CachedFile(
            key: key,
            url: url,
            bytes: row.bytes,
            sha256: row.sha256,
            pinned: row.pinned,
            createdAt: row.createdAt,
            accessedAt: use ? now : row.accessedAt,
            downloaded: false
        )
    }

    /// The file of `request`: from the cache when it is there, else downloaded, verified
    /// and moved into place. Asking for a pinned file pins a cached copy.
    ///
    /// Concurrent calls for the same key share one download.
    ///
    /// - Throws: `requires_connection` when the request's network requirement does not
    ///   hold, `TransportFailure` when the remote did not answer (the partial file is kept
    ///   for a resume), `RemoteFailure` for an error status, `remote_unavailable` when
    ///   the file failed verification in a way going again may cure (a wrong size, a first
    ///   checksum mismatch) and `FerryError(.file)` when it will not (the same wrong content
    ///   twice; either way the file is discarded: `FileCache+Verification.swift`),
    ///   `storage_unavailable` when pinned files leave no room for it in the budget, or
    ///   downloads under way hold the rest for now.
    public func fetch(_ request: TransferRequest) async throws -> CachedFile {
        if var hit = try await cachedFile(request.key) {
            if request.pinned, !hit.pinned {
                try await pin(request.key, true)
                hit.pinned = true
            }
            return hit
        }
        if let running = inFlight[request.key] { return try await running.value }
        let task = Task.apart { try await self.download(request) }
        inFlight[request.key] = task
        defer { inFlight[request.key] = nil }
        return try await task.value
    }

    /// Marks `key` as explicitly wanted (never evicted nor expired), or not; a key the cache
    /// does not hold is left alone.
    ///
    /// - Parameters:
    ///   - key: the file's name in the cache.
    ///   - pinned: true to pin it, false to let the budget and the age limit apply again.
    public func pin(_ key: String, _ pinned: Bool) async throws {
        let owner = self.owner
        try await store.write { db in
            try db.execute(
                sql: "UPDATE kernel_transfers SET pinned = ? WHERE owner = ? AND key = ?",
                arguments: [pinned, owner, key]
            )
        }
    }

    /// Removes the file under `key` (complete or partial); returns whether there was one.
    @discardableResult
    public func remove(_ key: String) async throws -> Bool {
        let owner = self.owner
        guard let row = try await store.read({ db in try TransferIndex.row(owner: owner, key: key, in: db) }) else {
            return false
        }
        try await remove(row)
        return true
    }

    /// Every complete file, least recently used first.
    public func entries() async throws -> [CachedFile] {
        let owner = self.owner
        let rows = try await store.read { db in try TransferIndex.all(owner: owner, state: TransferRow.complete, in: db)
        }
        return rows.compactMap { row in
            guard let url = try? TransferPath.resolve(row.path, under: root) else { return nil }
            return CachedFile(
                key: row.key,
                url: url,
                bytes: row.bytes,
                sha256: row.sha256,
                pinned: row.pinned,
                createdAt: row.createdAt,
                accessedAt: row.accessedAt,
                downloaded: false
            )
        }
    }

    /// The keys of the complete files of the cache of `owner`, read inside a plugin's own
    /// transaction, so that what it decides from them is consistent with its own rows.
    public static func completeKeys(owner: String, in db: Database) throws -> Set<String> {
        Set(try TransferIndex.all(owner: owner, state: TransferRow.complete, in: db).map(\.key))
    }

    /// The downloads under way or interrupted, with the bytes each has on disk (recorded
    /// about every mebibyte while it runs, by whichever process runs it).
    public func inProgress() async throws -> [String: Int64] {
        let owner = self.owner
        let rows = try await store.read { db in try TransferIndex.all(owner: owner, state: TransferRow.partial, in: db) }
        return Dictionary(rows.map { ($0.key, $0.bytes) }, uniquingKeysWith: { first, _ in first })
    }

    /// What the cache holds against its budget.
    public func usage() async throws -> FileCacheUsage {
        let owner = self.owner
        let totals = try await store.read { db in try TransferIndex.usage(owner: owner, in: db) }
        return FileCacheUsage(
            files: totals.files,
            bytes: totals.bytes,
            pinnedFiles: totals.pinnedFiles,
            pinnedBytes: totals.pinnedBytes,
            partialBytes: totals.partialBytes,
            maxBytes: budget.maxBytes,
            maxAgeSeconds: budget.maxAge
        )
    }

    /// Removes unpinned files downloaded more than `maxAge` ago, and partial files as old.
    @discardableResult
    public func expire() async throws -> RemovalReport {
        guard budget.maxAge != nil else { return RemovalReport() }
        let owner = self.owner
        let now = clock.now()
        let rows = try await store.read { db in
            try TransferIndex.all(owner: owner, state: TransferRow.complete, in: db)
                + TransferIndex.all(owner: owner, state: TransferRow.partial, in: db)
        }
        var report = RemovalReport()
        for row in rows where isExpired(row, now: now) {
            try await remove(row)
            report.keys.append(row.key)
            report.bytes += row.bytes
        }
        if !report.keys.isEmpty { logger.debug("\(owner): expired \(report.keys.count) files") }
        return report
    }

    /// Evicts unpinned files, least recently used first, until the cache fits its budget;
    /// `protecting` is never evicted (the file just downloaded).
    @discardableResult
    public func enforceBudget(protecting protected: String? = nil) async throws -> RemovalReport {
        guard let maxBytes = budget.maxBytes else { return RemovalReport() }
        return try await evict(toFit: maxBytes, protecting: protected)
    }

    /// Evicts unpinned files, least recently used first, until the complete files take at
    /// most `target` bytes or none is left to evict; `protected` is never evicted.
    ///
    /// The total and the next file to evict are read again before each removal, so that
    /// evictions running at once (downloads finishing together) never take more than needed.
    func evict(toFit target: Int64, protecting protected: String?) async throws -> RemovalReport {
        let owner = self.owner
        var report = RemovalReport()
        while true {
            let (total, next) = try await store.read { db in
                (
                    try TransferIndex.usage(owner: owner, in: db).bytes,
                    try TransferIndex.evictable(owner: owner, limit: 2, in: db).first { $0.key != protected }
                )
            }
            guard total > target, let next else { break }
            try await remove(next)
            report.keys.append(next.key)
            report.bytes += next.bytes
        }
        if !report.keys.isEmpty {
            logger.debug("\(owner): evicted \(report.keys.count) files to stay within \(ByteCount(target))")
        }
        return report
    }

    /// Removes every file (unpinned only, unless `includingPinned`) and every partial download.
    @discardableResult
    public func purge(includingPinned: Bool = true) async throws -> RemovalReport {
        let owner = self.owner
        let rows = try await store.read { db in
            try TransferIndex.all(owner: owner, state: TransferRow.complete, in: db)
                + TransferIndex.all(owner: owner, state: TransferRow.partial, in: db)
        }
        var report = RemovalReport()
        for row in rows where includingPinned || !row.pinned || row.state == TransferRow.partial {
            try await remove(row)
            report.keys.append(row.key)
            report.bytes += row.bytes
        }
        return report
    }

    func isExpired(_ row: TransferRow, now: Date) -> Bool {
        guard let maxAge = budget.maxAge, !row.pinned || row.state == TransferRow.partial else { return false }
        return now.timeIntervalSince(row.createdAt) >= maxAge
    }

    /// Deletes the file first, then its row: a crash in between leaves a row without a
    /// file, which the next lookup notices and forgets.
    func remove(_ row: TransferRow) async throws {
        if let url = try? TransferPath.resolve(row.path, under: root) {
            try? FileManager.default.removeItem(
                at: row.state == TransferRow.partial ? TransferPath.partial(for: url) : url
            )
        }
        let owner = self.owner
        try await store.write { db in try TransferIndex.delete(owner: owner, key: row.key, in: db) }
    }
}
