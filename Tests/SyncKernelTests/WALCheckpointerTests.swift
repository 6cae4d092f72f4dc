import Foundation
import GRDB
import SyncKernel
import Testing

@Suite("Store: the WAL is copied back after commits, off the writer")
struct WALCheckpointerTests {
    /// Commits `count` transactions of 16 KB each.
    func commit(_ count: Int, into store: FerryStore) async throws {
        for _ in 0..<count {
            try await store.writer.write { db in
                try db.execute(sql: "INSERT INTO blobs (b) VALUES (randomblob(16384))")
            }
        }
    }

    func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Waits for a background thread's work, up to 30 seconds (a loaded machine is slow).
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<3000 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// Whether every frame of the WAL was copied back, read from the WAL index
    /// (sqlite.org/walformat.html: mxFrame at byte 16, nBackfill at byte 96, native order).
    func walFullyCopied(_ path: String) -> Bool {
        guard let index = FileManager.default.contents(atPath: path + "-shm"), index.count >= 100 else { return false }
        func word(at offset: Int) -> UInt32 {
            index.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        }
        return word(at: 16) > 0 && word(at: 96) == word(at: 16)
    }

    /// Opens the store at `path` a second time, as another process would, and waits until
    /// the WAL is fully copied; returns the second store (to keep it open) and whether it was.
    func reopenAndWaitForTheCopy(_ path: String) async throws -> (FerryStore, Bool) {
        let reopened = try FerryStore.open(at: path)
        return (reopened, try await eventually { walFullyCopied(path) })
    }

    func openStore() throws -> (FerryStore, String) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("ferry-wal-\(UUID().uuidString)/ferry.sqlite").path
        let store = try FerryStore.open(at: path)
        try store.writer.write { db in try db.execute(sql: "CREATE TABLE blobs (b BLOB NOT NULL)") }
        return (store, path)
    }

    @Test func committedPagesReachTheDatabaseFileWithoutTheWriterCheckpointing() async throws {
        let (store, path) = try openStore()
        let before = size(path)
        // About 5 MB: past the checkpointer's threshold, far below the writer's own. The
        // checkpointer copies at least its threshold's worth (1,000 pages, about 4 MB).
        try await commit(300, into: store)
        let copied = try await eventually { size(path) >= before + 2 * 1024 * 1024 }
        #expect(copied, "the database file stayed at \(size(path)) bytes; the checkpointer did not run")
    }

    @Test func theWALStartsOverOnceCopiedInsteadOfGrowing() async throws {
        let (store, path) = try openStore()
        try await commit(300, into: store)
        // What the checkpointer leaves below its threshold, a store opening copies.
        let (reopened, copied) = try await reopenAndWaitForTheCopy(path)
        #expect(copied, "the WAL was not copied back after the burst")
        let walSize = size(path + "-wal")
        // Once all is copied, the next commit writes from the start of the WAL, not past its
        // end: nothing the checkpointer does keeps the WAL from starting over.
        try await commit(1, into: store)
        #expect(size(path + "-wal") == walSize)
        withExtendedLifetime(reopened) {}
    }

    @Test func whatAnEarlierProcessLeftInTheWALIsCopiedWhenTheStoreOpens() async throws {
        let (store, path) = try openStore()
        // A few commits, far below the checkpointer's threshold: they stay in the WAL.
        try await commit(3, into: store)
        let (reopened, copied) = try await reopenAndWaitForTheCopy(path)
        #expect(copied, "the commits left in the WAL were not copied after opening")
        withExtendedLifetime(reopened) {}
    }

    /// A store that closes leaves nothing behind: when `close()` returns, the checkpointer's
    /// connection is gone too, so the store's own, the last to close, copied the whole WAL
    /// back and removed it. Left open a moment longer, the checkpointer's connection did
    /// that instead, or not, as threads ran: a simulated device that died and opened its
    /// store again found its pages laid out one way or another, and a seed did not always
    /// replay the same.
    @Test func whenTheCloseReturnsEveryConnectionIsClosedAndTheWALIsGone() async throws {
        for _ in 0..<5 {
            let (store, path) = try openStore()
            try await commit(20, into: store)
            try store.close()
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the WAL outlived the close")
        }
    }
}
