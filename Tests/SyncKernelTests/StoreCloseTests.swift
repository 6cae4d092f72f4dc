import Foundation
import GRDB
import Synchronization
import Testing

@testable import SyncKernel

/// `FerryStore.close()` while other work still reads the store (a simulated device dying
/// while its pass runs): a read never reaches a closed connection, which SQLite without
/// API armour (Debian's) dereferences: the process died with SIGSEGV inside
/// `DatabasePool.read`.
@Suite("Store: closing while reads run")
struct StoreCloseTests {
    static func openStore() throws -> FerryStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-close-\(UUID().uuidString)")
        return try FerryStore.open(at: folder.appendingPathComponent("ferry.sqlite").path)
    }

    static let count = "SELECT count(*) FROM kernel_operations"

    @Test func aReadThatStartsDuringTheCloseThrowsAtOnceAndTheCloseWaitsForTheReadRunning() throws {
        let store = try Self.openStore()
        // A read that runs until the test lets it go: the close must wait for it.
        let running = DispatchSemaphore(value: 0)
        let letGo = DispatchSemaphore(value: 0)
        let first = Answer()
        first.start {
            try store.readHere { db in
                running.signal()
                letGo.wait()
                return try Int.fetchOne(db, sql: Self.count) ?? -1
            }
        }
        running.wait()
        let closed = Answer()
        closed.start {
            try store.close()
            return 0
        }
        try Self.waitUntil { store.isClosed }

        // GRDB alone lets this read wait for the close, then hands it a closed connection.
        let second = Answer()
        second.start { try store.readHere { db in try Int.fetchOne(db, sql: Self.count) ?? -1 } }
        let answeredAtOnce = second.wait(seconds: 30)
        #expect(answeredAtOnce, "a read that started during the close waited for it")
        #expect(closed.wait(seconds: 0) == false, "the store closed under a read still running")

        letGo.signal()
        #expect(closed.wait(seconds: 30))
        #expect(second.wait(seconds: 30))
        // The close returns once the read has ended, a moment before its answer is kept.
        #expect(first.wait(seconds: 30))
        #expect(first.result.flatMap { try? $0.get() } == 0)
        #expect(second.result.map { Self.isClosedStore($0) } == true)
        #expect(closed.result.flatMap { try? $0.get() } == 0)
    }

    @Test func everyAccessAfterTheCloseThrowsAStorageErrorThatSaysSo() async throws {
        let store = try Self.openStore()
        try store.close()
        #expect(store.isClosed)
        let read = await #expect(throws: FerryError.self) {
            try await store.read { db in try Int.fetchOne(db, sql: Self.count) }
        }
        #expect(read?.code == .storage)
        #expect(read?.message.contains("closed") == true)
        let write = await #expect(throws: FerryError.self) {
            try await store.write { db in try db.execute(sql: "DELETE FROM kernel_operations") }
        }
        #expect(write?.code == .storage)
        #expect(throws: FerryError.self) {
            try store.writeBlocking { db in try db.execute(sql: "DELETE FROM kernel_operations") }
        }
    }

    /// Whether `result` is the refusal of a closed store.
    static func isClosedStore(_ result: Result<Int, any Error>) -> Bool {
        guard case .failure(let error) = result else { return false }
        return error is StoreClosed
    }

    /// Waits, on this thread, until another thread makes `condition` true.
    static func waitUntil(seconds: Double = 30, _ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw Wait.TimedOut() }
            sched_yield()
        }
    }
}

/// The result of work run on a thread of its own (blocking work must not hold one of the
/// few cooperative threads).
private final class Answer: Sendable {
    private let value = Mutex<Result<Int, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    var result: Result<Int, any Error>? { value.withLock { $0 } }

    func start(_ work: @escaping @Sendable () throws -> Int) {
        Thread { [self] in
            let result = Result { try work() }
            value.withLock { $0 = result }
            done.signal()
        }.start()
    }

    /// Whether the work ended within `seconds`; once it has, later calls say so at once.
    func wait(seconds: Double) -> Bool {
        guard done.wait(timeout: .now() + seconds) == .success else { return false }
        done.signal()
        return true
    }
}
