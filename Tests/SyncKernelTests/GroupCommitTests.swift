import Foundation
import GRDB
import Synchronization
import Testing

@testable import SyncKernel

@Suite("Group commit: writes waiting together commit together, a failing one alone loses", .timeLimit(.minutes(3)))
struct GroupCommitTests {
    struct Refused: Error, Equatable { let name: String }

    /// A group commit over a table `t`, with the writer's queue held until
    /// `release(whenWaiting:)`, so that the writes started meanwhile commit as one batch.
    final class Bench: Sendable {
        let queue: DatabaseQueue
        let group: GroupCommit
        let counter = CommitCounter()
        private let gate = DispatchSemaphore(value: 0)
        private let holder: Task<Void, any Error>

        init() async throws {
            queue = try DatabaseQueue()
            try await queue.write { db in
                try db.execute(sql: "CREATE TABLE t (id TEXT PRIMARY KEY)")
                try db.execute(sql: "INSERT INTO t (id) VALUES ('taken')")
            }
            let counter = counter
            try await queue.write { db in db.add(transactionObserver: counter, extent: .databaseLifetime) }
            // The hold below waits inside a write: on the writer's queue, not on one of
            // Swift's cooperative threads, which other tests need meanwhile.
            let group = GroupCommit(writer: queue, leaderCommitsHere: false)
            self.group = group
            let held = Mutex(false)
            let gate = gate
            holder = Task {
                try await group.write { _ in
                    held.withLock { $0 = true }
                    gate.wait()
                }
            }
            while !held.withLock({ $0 }) {
                try Task.checkCancellation()
                await Task.yield()
            }
        }

        func insert(_ id: String) -> @Sendable (Database) throws -> String {
            { db in
                try db.execute(sql: "INSERT INTO t (id) VALUES (?)", arguments: [id])
                return id
            }
        }

        /// Returns once `count` writes wait behind the held writer.
        func waitUntilWaiting(_ count: Int) async throws {
            while group.waitingCount < count {
                if Task.isCancelled { gate.signal() }
                try Task.checkCancellation()
                await Task.yield()
            }
        }

        /// Lets the held writer go once `count` writes wait behind it.
        func release(whenWaiting count: Int) async throws {
            try await waitUntilWaiting(count)
            gate.signal()
            try await holder.value
        }

        func ids() async throws -> [String] {
            try await queue.read { db in
                try String.fetchAll(db, sql: "SELECT id FROM t WHERE id != 'taken' ORDER BY id")
            }
        }
    }

    /// Counts the transactions that committed a change.
    final class CommitCounter: TransactionObserver, Sendable {
        private let state = Mutex((commits: 0, changed: false))
        var commits: Int { state.withLock { $0.commits } }
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { state.withLock { $0.changed = true } }
        func databaseDidCommit(_ db: Database) {
            state.withLock { state in
                if state.changed { state.commits += 1 }
                state.changed = false
            }
        }
        func databaseDidRollback(_ db: Database) { state.withLock { $0.changed = false } }
    }

    @Test func writesWaitingTogetherCommitInOneTransactionAndEachGetsItsOwnResult() async throws {
        let bench = try await Bench()
        async let a = bench.group.write(bench.insert("a"))
        async let b = bench.group.write(bench.insert("b"))
        async let c = bench.group.write(bench.insert("c"))
        try await bench.release(whenWaiting: 3)
        #expect(try await [a, b, c] == ["a", "b", "c"])
        #expect(try await bench.ids() == ["a", "b", "c"])
        #expect(bench.counter.commits == 1)
    }

    @Test func aWriteThatThrowsGetsItsErrorAndLeavesNothingWhileTheOthersCommit() async throws {
        let bench = try await Bench()
        let (insertC, insertD) = (bench.insert("c"), bench.insert("d"))
        async let a = bench.group.write(bench.insert("a"))
        async let refused = outcome {
            try await bench.group.write { db in
                _ = try insertC(db)  // a change of its own, made before it refuses
                throw Refused(name: "c")
            }
        }
        async let duplicate = outcome {
            try await bench.group.write { db in
                _ = try insertD(db)
                try db.execute(sql: "INSERT INTO t (id) VALUES ('taken')")
            }
        }
        async let b = bench.group.write(bench.insert("b"))
        try await bench.release(whenWaiting: 4)

        #expect(try await a == "a")
        #expect(try await b == "b")
        let (refusal, failure) = await (refused, duplicate)
        #expect(throws: Refused(name: "c")) { try refusal.get() }
        #expect(throws: DatabaseError.self) { try failure.get() }
        #expect(try await bench.ids() == ["a", "b"])
    }

    @Test func aFailureRunsTheBatchAgainAndEachCallerGetsTheRunThatCommitted() async throws {
        let bench = try await Bench()
        let runs = Mutex(0)
        async let counted = bench.group.write { db -> Int in
            let run = runs.withLock { runs in
                runs += 1
                return runs
            }
            try db.execute(sql: "INSERT INTO t (id) VALUES (?)", arguments: ["run-\(run)"])
            return run
        }
        try await bench.waitUntilWaiting(1)
        async let refused = outcome { try await bench.group.write { _ in throw Refused(name: "r") } }
        try await bench.release(whenWaiting: 2)

        #expect(try await counted == 2)
        #expect(try await bench.ids() == ["run-2"])
        let refusal = await refused
        #expect(throws: Refused(name: "r")) { try refusal.get() }
    }

    @Test func aWriteThatFailsOnlyTheFirstTimeCommitsWhenItsBatchRunsAgain() async throws {
        let bench = try await Bench()
        let failed = Mutex(false)
        async let a = bench.group.write(bench.insert("a"))
        try await bench.waitUntilWaiting(1)
        async let b = bench.group.write { db -> String in
            if !failed.withLock({ $0 }) {
                failed.withLock { $0 = true }
                throw Refused(name: "once")
            }
            try db.execute(sql: "INSERT INTO t (id) VALUES ('b')")
            return "b"
        }
        try await bench.release(whenWaiting: 2)

        #expect(try await [a, b] == ["a", "b"])
        #expect(try await bench.ids() == ["a", "b"])
    }

    @Test func aLoneWriteThatThrowsRunsOnceAndGetsItsError() async throws {
        let bench = try await Bench()
        let runs = Mutex(0)
        async let refused = outcome {
            try await bench.group.write { _ in
                runs.withLock { $0 += 1 }
                throw Refused(name: "alone")
            }
        }
        try await bench.release(whenWaiting: 1)

        let refusal = await refused
        #expect(throws: Refused(name: "alone")) { try refusal.get() }
        #expect(runs.withLock { $0 } == 1)
    }

    @Test func aWriteWhileAnotherConnectionHoldsTheLockWaitsForItAndRunsOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-group-busy-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.sqlite").path
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let pool = try DatabasePool(path: path, configuration: configuration)
        try await pool.write { db in try db.execute(sql: "CREATE TABLE t (id TEXT PRIMARY KEY)") }
        let group = GroupCommit(writer: pool)
        // Another process, as SQLite sees it: a connection of its own, in a write transaction.
        let other = try DatabaseQueue(path: path)
        let gate = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        let heldRows = Mutex<Int?>(nil)
        let holder = Thread {
            try? other.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                holding.signal()
                // Let go when the test says, or after five seconds, within the writer's busy
                // timeout (ten) however long a two-core run busy with the simulation's seeds
                // keeps the test's task from saying it.
                _ = gate.wait(timeout: .now() + 5)
                heldRows.withLock { $0 = try? Int.fetchOne(db, sql: "SELECT count(*) FROM t") }
                try db.execute(sql: "COMMIT")
            }
        }
        holder.start()
        holding.wait()
        let runs = Mutex(0)
        async let written = group.write { db in
            runs.withLock { $0 += 1 }
            try db.execute(sql: "INSERT INTO t (id) VALUES ('mine')")
            return "mine"
        }
        // The write neither failed with "database is locked" nor was in while the lock was held.
        try await Task.sleep(for: .milliseconds(50))
        gate.signal()
        #expect(try await written == "mine")
        #expect(heldRows.withLock { $0 } == 0)
        #expect(runs.withLock { $0 } == 1, "the round put back had not run")
        #expect(try await pool.read { db in try String.fetchAll(db, sql: "SELECT id FROM t") } == ["mine"])
    }

    func outcome<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
