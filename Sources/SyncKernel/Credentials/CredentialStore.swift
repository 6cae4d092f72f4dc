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
    /// A token that changes whenever another process saved; nil if the store cannot tell.
    func revision() -> Date?
}

extension CredentialStore {
    public func revision() -> Date? { nil }
}

/// A credential file readable by its owner only (mode 0600, in a 0700 folder).
///
/// A file that others can read is refused, with the command that fixes it.
public struct FileCredentialStore: CredentialStore {
    public let path: String

    public init(path: String) {
        self.path = path
    }

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
