import Foundation

/// Where credentials rest between runs: a file only its owner can read by default;
/// an app on another platform plugs in its keychain.
public protocol CredentialStore: Sendable {
    /// The stored bytes, or nil when nothing is stored.
    func load() throws -> Data?
    /// Replaces what is stored.
    func save(_ data: Data) throws
    /// Forgets what is stored.
    func delete() throws
    /// A value that changes whenever another process saved (a modification time); nil if
    /// the store cannot tell.
    func revision() -> Date?
}

extension CredentialStore {
    /// Nil: the store cannot tell when another process saved.
    public func revision() -> Date? { nil }
}

/// A credential file readable by its owner only (mode 0600, in a 0700 folder).
///
/// A file that others can read is refused, with the command that fixes it.
public struct FileCredentialStore: CredentialStore {
    /// The credential file's path.
    public let path: String

    /// Keeps credentials in the file at `path`; nothing is read or written until asked.
    public init(path: String) {
        self.path = path
    }

    /// The file's bytes, or nil when there is no file.
    ///
    /// - Throws: a `file` error when the file can be read by its group or others; the message
    ///   gives the `chmod` that fixes it.
    public func load() throws -> Data? {
        guard let info = status() else { return nil }
        let mode = Int(info.st_mode & 0o777)
        guard mode & 0o077 == 0 else {
            throw FerryError(
                .file,
                "the credential file \(path) can be read by other users (mode \(String(mode, radix: 8))); run `chmod 600 \(path)` and try again"
            )
        }
        return FileManager.default.contents(atPath: path)
    }

    /// Writes `data` to a new file of mode 0600 and renames it over the old one, creating the
    /// folder with mode 0700 when it is missing: a reader never sees half a file.
    public func save(_ data: Data) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: folder,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let temporary = folder + "/.credentials-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw FerryError(.file, "cannot write the credential file in \(folder); check that the folder is writable")
        }
        if rename(temporary, path) != 0 {
            try? FileManager.default.removeItem(atPath: temporary)
            throw FerryError(.file, "cannot replace the credential file \(path) (errno \(errno))")
        }
    }

    /// Removes the file, if there is one.
    public func delete() throws {
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
    }

    /// The file's modification time to the nanosecond, from `stat` alone: Foundation's
    /// file attributes also look up the owner's and group's names, which reads
    /// `/etc/passwd` and `/etc/group` on every call, and the runner asks twice a second.
    public func revision() -> Date? {
        guard let info = status() else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        return Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }

    private func status() -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
