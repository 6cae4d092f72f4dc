import Foundation

/// An independent SHA-256 for checking the server's checksums (via `sha256sum`).
func sha256Hex(_ data: Data) -> String? {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-sha-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: url) }
    guard (try? data.write(to: url)) != nil else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = [url.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return output.split(separator: " ").first.map(String.init)
}
