import Foundation
import SyncKernelTesting

/// An independent SHA-256 for checking the server's checksums (coreutils' `sha256sum`,
/// run as a child process), nil when it cannot be run.
func sha256Hex(_ data: Data) async -> String? {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-sha-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: url) }
    guard (try? data.write(to: url)) != nil else { return nil }
    let sha256sum = FerryExecutable(
        url: URL(fileURLWithPath: "/usr/bin/sha256sum"),
        folder: FileManager.default.temporaryDirectory
    )
    guard let result = try? await sha256sum.run([url.path]), result.status == 0 else { return nil }
    return result.output.split(separator: " ").first.map(String.init)
}
