import Foundation
import SyncKernel
import Testing

#if canImport(Glibc)
import Glibc

/// An idle runner asked the credential file for its revision twice a second through
/// Foundation's file attributes, which look up the owner's and group's names:
/// `/etc/passwd` and `/etc/group` were opened on every call made from a new thread. The
/// store reads `stat` alone now. Watched with inotify, which sees every open of the two
/// files on this machine: other processes (the `ferry` processes other tests start) open
/// them too, so a round with opens is tried again, and only three such rounds in a row fail.
@Suite("Credential file: revisions without user lookups")
struct CredentialFileLookupTests {
    @Test func readingTheRevisionFromManyThreadsOpensNeitherPasswdNorGroup() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-cred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileCredentialStore(path: folder.appendingPathComponent("credentials.json").path)
        try store.save(Data("{}".utf8))

        let watch = inotify_init1(Int32(IN_NONBLOCK))
        try #require(watch >= 0)
        defer { close(watch) }
        for file in ["/etc/passwd", "/etc/group"] { _ = inotify_add_watch(watch, file, UInt32(IN_OPEN)) }

        // Foundation's attributes opened both files once per call from a new thread: 100 here.
        let calls = 50
        var rounds: [Int] = []
        for _ in 0..<3 {
            _ = Self.opens(watch)
            let done = DispatchGroup()
            for _ in 0..<calls {
                done.enter()
                Thread.detachNewThread {
                    _ = store.revision()
                    _ = try? store.load()
                    done.leave()
                }
            }
            done.wait()
            rounds.append(Self.opens(watch))
            if rounds.last! < calls / 2 { break }
        }
        #expect(rounds.last! < calls / 2, "opens of /etc/passwd and /etc/group per round: \(rounds)")
    }

    static func opens(_ watch: Int32) -> Int {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var events = 0
        while true {
            let count = read(watch, &buffer, buffer.count)
            guard count > 0 else { return events }
            var offset = 0
            while offset < count {
                let nameLength = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 12, as: UInt32.self) }
                offset += 16 + Int(nameLength)
                events += 1
            }
        }
    }
}
#endif
