import Foundation
import SyncKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock on a file, so that two processes never refresh the same
/// session at once (a rotated refresh token used twice ends the session).
struct FileLock {
    private let descriptor: Int32

    init(path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: folder,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        descriptor = open(path, O_CREAT | O_RDWR, 0o600)
        guard descriptor >= 0 else { throw FerryError(.file, "cannot open the lock file \(path) (errno \(errno))") }
        guard flock(descriptor, LOCK_EX) == 0 else {
            close(descriptor)
            throw FerryError(.file, "cannot lock \(path) (errno \(errno))")
        }
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
