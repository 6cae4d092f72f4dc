import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

#if canImport(Glibc)
import Glibc

/// An idle runner asked the credential file for its revision twice a second through
/// Foundation's file attributes, which look up the owner's and group's names:
/// `/etc/passwd` and `/etc/group` were opened on every call made from a new thread. The
/// store reads `stat` alone now. Watched with inotify, which sees every open of the two
/// files on this machine: other processes (the `ferry` processes other tests start) open
/// them too, so a round with opens is tried again, a little later, and only fifty such
/// rounds in a row fail: without the fix, every round opens them at least 100 times.
@Suite("Credential file: revisions without user lookups")
struct CredentialFileLookupTests {
    @Test func readingTheRevisionFromManyThreadsOpensNeitherPasswdNorGroup() async throws {
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
        // Off Swift's cooperative pool: the rounds block while they wait, and pause between.
        let rounds = await onOwnThread {
            var rounds: [Int] = []
            for _ in 0..<50 {
                if !rounds.isEmpty { usleep(20_000) }
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
            return rounds
        }
        #expect(rounds.last! < calls / 2, "opens of /etc/passwd and /etc/group per round, fewest: \(rounds.min()!)")
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
