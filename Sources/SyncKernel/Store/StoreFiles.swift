import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files around a store: its folder (0700), the database and its WAL (0600), the lock
/// taken while it opens, and the marker that says a store was created here.
///
/// SQLite takes a missing or zero-length file for a new, empty database. The marker is how
/// the kernel tells "never created" from "created, then lost" (a crash that truncated the
/// file, a careless copy): a store that should exist and does not is an error, never a
/// silently recreated empty store with the queued operations gone.
struct StoreFiles {
    let path: String

    var folder: String { (path as NSString).deletingLastPathComponent }
    var lockPath: String { path + ".lock" }
    var markerPath: String { path + ".created" }

    /// Creates the folder (0700) or narrows an existing one to its owner.
    func prepareFolder() throws {
        guard !folder.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: folder,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw FerryError(
                .storage,
                "cannot create the data folder \(folder): \(error.localizedDescription); check its permissions or set data_dir in config.yaml",
                underlying: error
            )
        }
        Self.narrow(folder, to: 0o700)
    }

    /// Creates the database file readable by its owner only (SQLite gives its WAL and
    /// shared-memory files the database's mode), or narrows existing ones.
    func preparePrivateFiles() {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
        for file in [path, path + "-wal", path + "-shm", markerPath] { Self.narrow(file, to: 0o600) }
    }

    /// Whether the database file exists and holds nothing.
    var isZeroLength: Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_size == 0
    }

    /// Whether the marker says a store was created here.
    var markerExists: Bool { FileManager.default.fileExists(atPath: markerPath) }

    /// Whether an empty database file stands where a store was: the marker, or, for stores
    /// older than the marker, anything else a runner leaves in the folder (plugin folders,
    /// credentials).
    func emptyFileReplacedAStore() -> Bool {
        if markerExists { return true }
        let own = Set([path, path + "-wal", path + "-shm", lockPath].map { ($0 as NSString).lastPathComponent })
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return entries.contains { !own.contains($0) && !$0.hasPrefix(".") }
    }

    /// Records that a store exists here.
    func writeMarker() {
        guard !markerExists else { return }
        let text = "A Ferry store was created beside this file. Ferry refuses to replace it with an empty one.\n"
        // Best effort: without the marker, the other files of the data folder still tell
        // that a store lived here.
        _ = FileManager.default.createFile(
            atPath: markerPath,
            contents: Data(text.utf8),
            attributes: [.posixPermissions: 0o600]
        )
    }

    /// The error for a store that existed and has no schema now.
    func lostStore(missing: Bool) -> FerryError {
        let state = missing ? "is missing" : "is empty (no tables)"
        let startOver = missing ? "remove \(markerPath)" : "move \(path) away and remove \(markerPath)"
        return FerryError(
            .storage,
            "the store \(path) \(state), but this data folder held a store: it may have been truncated by a crash or replaced by a copy, and its queued operations would be lost; restore it from a backup; to start over with an empty store, \(startOver)"
        )
    }

    /// Removes the group and other permission bits of `file`, if it exists and has any.
    private static func narrow(_ file: String, to mode: mode_t) {
        var info = stat()
        guard stat(file, &info) == 0, info.st_mode & 0o077 != 0 else { return }
        chmod(file, mode)
    }
}
