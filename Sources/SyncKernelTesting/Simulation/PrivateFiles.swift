import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a device keeps is its owner's alone: its data folder and everything in it, the
/// store, the credentials, downloads, readable by no one else (docs/reliability.md, "The
/// store's files").
enum PrivateFiles {
    /// The entries under `folder`, itself included, that someone other than their owner may
    /// read, write or enter, with their modes; paths relative to `folder`.
    static func exposed(under folder: String) -> [(path: String, mode: mode_t)] {
        var found: [(path: String, mode: mode_t)] = []
        visit(folder, shown: ".", into: &found)
        return found
    }

    private static func visit(_ path: String, shown: String, into found: inout [(path: String, mode: mode_t)]) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        let mode = info.st_mode & 0o7777
        if mode & 0o077 != 0 { found.append((shown, mode)) }
        guard info.st_mode & S_IFMT == S_IFDIR, let directory = opendir(path) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            visit(path + "/" + name, shown: shown == "." ? name : shown + "/" + name, into: &found)
        }
    }
}
