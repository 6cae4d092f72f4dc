import Foundation
import GRDB
import SyncKernel

/// Offline audio: albums and collections downloaded for offline play, Wi-Fi only,
/// verified against each track's size and SHA-256, within a storage cap.
///
/// Each file to fetch is a queued `download` operation (entity: the track's part key)
/// that requires an unmetered connection, so the kernel holds it on a metered link and
/// sends it by itself once an unmetered one is back. Its send fetches the file through the
/// kernel's file cache (owner `audio.tracks`), which resumes with `Range`, verifies, and
/// evicts tracks cached ahead of play, least recently played first, to stay within
/// `max_size`; files of kept albums are pinned and never evicted.
public struct AudioPlugin: SyncPlugin {
    /// The `audio:` section of `config.yaml`.
    public typealias Settings = AudioSettings

    /// The plugin's key in `config.yaml` and the prefix of its tables.
    public static let name = "audio"
    /// One line for help and status.
    public static let summary = "Albums and collections for offline play: Wi-Fi only, verified, within a cap"
    /// `download`: one file, on an unmetered connection only; asking again for a file
    /// whose download waits changes nothing.
    public static let operations: [String: OperationPolicy] = [
        "download": OperationPolicy(requirement: .unmetered, coalesce: .init(mode: .replace))
    ]
    /// The plugin's tables.
    public static let migrations = AudioSchema.migrations
    /// Each download goes in a delivery of its own: one at a time per runner slot
    /// (`sync.concurrency`), so that downloads take their room in the cap in the order
    /// they are due, not in whichever order downloads running at once reach it.
    public static let sendsAlone = true

    /// The plugin's settings from `config.yaml`.
    public let settings: AudioSettings
    /// The downloaded files (the kernel's file cache, keyed by part key).
    public let files: FileCache

    /// Builds the plugin and its file cache under `<data_dir>/audio`.
    public init(settings: AudioSettings, context: PluginContext) {
        self.settings = settings
        self.files = FileCache(
            owner: "audio.tracks",
            root: context.directory.appendingPathComponent("tracks"),
            store: context.store,
            budget: TransferBudget(maxBytes: settings.maxSize.bytes),
            clock: context.clock,
            events: context.events,
            transport: context.transport,
            logger: context.logger
        )
    }

    /// Downloads one file, unless nothing on this device wants it any more.
    public func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        guard operation.kind == "download" else { throw FerryError(.plugin, "audio has no operation \(operation.kind)") }
        let partKey = operation.entity
        let (track, kept, ahead, played) = try await context.store.read { db in
            (
                try Library.file(partKey, in: db), try Ownership.isKept(partKey, in: db),
                try Ownership.isAhead(partKey, in: db), try Ownership.lastPlayed(partKey, in: db)
            )
        }
        guard let track, kept || ahead else {
            return .alreadyDone(reason: "\(partKey) is no longer kept on this device")
        }
        do {
            try await fetch(track, kept: kept, played: played, context: context)
        } catch let error as FerryError where error.code == .storageUnavailable && !kept {
            // Caching ahead helps; nobody asked for it: with no room beside the kept
            // downloads, the track is no longer cached ahead rather than failing for good.
            return .alreadyDone(reason: "no room to cache \(partKey) ahead: \(error.message)") { db in
                _ = try Ownership.dropAhead(partKey, in: db)
            }
        }
        // Removed while it downloaded: the next settle removes the file.
        let stillWanted = try await context.store.read { db in
            try Ownership.isKept(partKey, in: db) || Ownership.isAhead(partKey, in: db)
        }
        guard stillWanted else { return .alreadyDone(reason: "\(partKey) stopped being kept while it downloaded") }
        return .delivered { db in try Ownership.fetched(partKey, in: db) }
    }

    /// Fetches `track` into the file cache: pinned when kept, on an unmetered link only.
    private func fetch(_ track: AudioTrack, kept: Bool, played: Date?, context: PluginContext) async throws {
        let partKey = track.partKey
        _ = try await files.fetch(
            TransferRequest(
                key: partKey,
                url: track.url,
                relativePath: partKey,
                expectedBytes: track.byteSize,
                sha256: track.sha256,
                pinned: kept,
                requirement: .unmetered,
                use: played.map { .at($0) } ?? .notYet,
                stillAllowed: { [connectivity = context.connectivity] in
                    await connectivity?.current().satisfies(.unmetered) ?? true
                }
            )
        )
    }

    /// Pulls the albums and the collections, reconciles the downloaded collections with
    /// their albums, and brings the files in line with what this device keeps.
    public func pull(_ context: PluginContext) async throws -> PullSummary {
        let summary = try await AudioPull(context: context).run()
        try await Keeper(plugin: self, context: context).settle()
        return summary
    }

    /// How many downloaded tracks signing out removes.
    public func filesRemovedBySignOut(_ context: PluginContext) async throws -> Int {
        try await files.usage().files
    }

    /// Another account signed in: its albums and collections are fetched again (its files
    /// went first, through `removeFilesForSignOut`).
    public func forgetAccountData(in db: Database) throws {
        try Ownership.forgetAll(in: db)
        try Library.forgetAll(in: db)
    }

    /// Removes every downloaded track and what this device kept, and drops the waiting downloads.
    public func removeFilesForSignOut(_ context: PluginContext) async throws {
        try await context.commit { db, _ in try Ownership.forgetAll(in: db) }
        try await Keeper(plugin: self, context: context).settle()
        try await files.purge()
    }
}
