import Foundation
@testable import SyncKernel

enum FakeInterfaces {
    /// A fake /sys/class/net with the given interfaces: (name, up, wireless).
    static func make(_ entries: [(String, Bool, Bool)]) throws -> NetworkInterfaces {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("net-\(UUID().uuidString)")
        for (name, up, wireless) in entries {
            let folder = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try (up ? "up\n" : "down\n").write(
                to: folder.appendingPathComponent("operstate"),
                atomically: true,
                encoding: .utf8
            )
            if wireless {
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent("wireless"),
                    withIntermediateDirectories: true
                )
            }
        }
        return NetworkInterfaces(root: root.path)
    }
}

/// How long a test's probe of a live loopback server waits for its answer: a loaded
/// machine can take longer than the 3 s a device's probe waits, and the test is about
/// what the probe does with the answer, not how fast it comes.
let patientProbeTimeout: TimeInterval = 60
