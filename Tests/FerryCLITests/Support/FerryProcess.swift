import Foundation
import SyncKernelTesting

/// The built `ferry` executable in a folder of its own, with a config.yaml.
enum FerryProcess {
    static var executable: URL? { FerryExecutable.built }

    /// A new empty folder with `config` written as its config.yaml.
    static func make(config: String) throws -> FerryExecutable {
        guard let url = executable else { throw MissingExecutable() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try config.write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        return FerryExecutable(url: url, folder: folder)
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        var description: String { "the ferry executable is not built; run `swift build` first" }
    }
}
