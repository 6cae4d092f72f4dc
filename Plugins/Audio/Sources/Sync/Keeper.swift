import Foundation
import GRDB
import SyncKernel

/// Brings the files in line with what this device keeps: queues a download for each kept
/// or cached-ahead file the cache lacks, pins the files of kept albums, unpins files only
/// cached ahead, and removes files (and drops waiting downloads) nothing wants any more.
///
/// It runs after every change of what is kept (a download, a removal, a pull's
/// reconciliation, a sign-out), and is safe to run again at any time: a crash half way
/// leaves nothing that the next run does not put right.
struct Keeper: Sendable {
    let plugin: AudioPlugin
    let context: PluginContext

    /// What one run changed.
    struct Report: Sendable, Equatable {
        var queued = 0
        var removed = 0
        var dropped = 0
    }

    @discardableResult
    func settle() async throws -> Report {
        let files = plugin.files
        let complete = try await files.entries()
        let partial = try await files.inProgress()
        let name = AudioPlugin.name
        let have = Set(complete.map(\.key))
        let owner = files.owner
        let (kept, ahead, toFetch) = try await context.commit { db, _ in
            // Read again here: a file that arrived since `entries()` is not an eviction.
            try Ownership.forgetEvicted(keeping: FileCache.completeKeys(owner: owner, in: db), in: db)
            return (try Ownership.keptFiles(in: db), try Ownership.aheadFiles(in: db), try Ownership.aheadToFetch(in: db))
        }.value
        let wanted = kept.union(ahead)
        var report = Report()
        for file in complete {
            if kept.contains(file.key) {
                if !file.pinned { try await files.pin(file.key, true) }
            } else if ahead.contains(file.key) {
                if file.pinned { try await files.pin(file.key, false) }
            } else if try await files.remove(file.key) {
                report.removed += 1
            }
        }
        let sending = try await context.store.read { db in
            try Set(
                partial.keys.filter { key in
                    try Outbox.operations(plugin: name, entity: key, in: db).contains { $0.state == .inFlight }
                }
            )
        }
        // A partial file being written now is left to its send, which finds it unwanted and
        // lets the next settle remove the file.
        for key in partial.keys where !wanted.contains(key) && !sending.contains(key) { try await files.remove(key) }
        let (queued, dropped) = try await context.commit { db, queue in
            let working = try Outbox.entitiesWithWork(plugin: name, includingDead: true, in: db)
            var queued = 0
            for key in kept.union(toFetch).subtracting(have).subtracting(working).sorted() {
                queue.enqueue(NewOperation(plugin: name, kind: "download", entity: key, payloadJSON: Data("{}".utf8)))
                queued += 1
            }
            var dropped = 0
            for key in working.subtracting(wanted).sorted() {
                // One being sent now finishes; its file goes at the next settle.
                guard try !Outbox.operations(plugin: name, entity: key, in: db).contains(where: { $0.state == .inFlight })
                else { continue }
                queue.forget(plugin: name, entity: key)
                dropped += 1
            }
            return (queued, dropped)
        }.value
        report.queued = queued
        report.dropped = dropped
        return report
    }
}
