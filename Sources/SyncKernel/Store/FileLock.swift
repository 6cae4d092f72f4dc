import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock on a file, held across processes until `release()`.
///
/// The kernel opens and migrates a store under one (two processes creating the same store
/// at once would otherwise both create its tables); the auth plugin refreshes and signs in
/// under one (a rotated refresh token used twice ends the session).
public struct FileLock: Sendable {
    private let descriptor: Int32

    /// Waits until the lock on `path` is free and takes it; creates the file (mode 0600)
    /// and its folder (mode 0700) when missing.
    public init(path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(
                atPath: folder,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        }
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw FerryError(.file, "cannot open the lock file \(path) (errno \(errno)); check the folder's permissions")
        }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            close(descriptor)
            throw FerryError(.file, "cannot lock \(path) (errno \(code))")
        }
        self.descriptor = descriptor
    }

    /// Releases the lock; call it once.
    public func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
