import Foundation
import GRDB
import SyncKernel

extension SimulatedDevice {
    /// How a device took the damage of its store.
    enum DamageOutcome: Equatable {
        /// It refused the store, naming what is damaged; a person put back the copy.
        case refused
        /// There was nothing to damage (no operation queued): the process died, that is all.
        case nothingToDamage
        /// It went on with the damaged store: what it did, which loses what it had queued
        /// or would send it again as a new write.
        case wentOn(String)
    }

    /// The process dies and its store is damaged as `damage` says. The next life must
    /// refuse the store with an error that names what is damaged; a person then puts back
    /// the copy they kept, and the device starts on it.
    func damageStore(_ damage: SimulationEvent.StoreDamage) async throws -> DamageOutcome {
        let queued = try await operations()
        if damage == .unreadableID, queued.isEmpty {
            try await restart()
            return .nothingToDamage
        }
        let store = runtime.store.path!
        await stop()
        let files = [store, store + "-wal", store + "-shm"]
        let copies = try files.filter { FileManager.default.fileExists(atPath: $0) }.map {
            ($0, try Data(contentsOf: URL(fileURLWithPath: $0)))
        }
        let damaged = damage == .unreadableID ? queued.first : nil
        if let damaged {
            let queue = try DatabaseQueue(path: store)
            try await queue.write { db in
                try db.execute(
                    sql: "UPDATE kernel_operations SET id = 'edited by hand' WHERE seq = ?",
                    arguments: [damaged.sequence]
                )
            }
            try queue.close()
        } else {
            for file in files.dropFirst() where FileManager.default.fileExists(atPath: file) {
                try FileManager.default.removeItem(atPath: file)
            }
            try Data().write(to: URL(fileURLWithPath: store))
        }
        if let what = try await wentOn(store: store, damaged: damaged, queued: queued.count) { return .wentOn(what) }
        await stop()
        for file in files where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.removeItem(atPath: file)
        }
        for (file, data) in copies {
            guard FileManager.default.createFile(atPath: file, contents: data, attributes: [.posixPermissions: 0o600])
            else { throw FerryError(.storage, "could not put back the copy of \(file)") }
        }
        try await start()
        return .refused
    }

    /// Starts on the damaged store and reads its operations, as a pass would: nil when the
    /// device refused it with an error that names what is damaged (the file, or the
    /// operation `damaged`), else what it did instead.
    private func wentOn(store: String, damaged: QueuedOperation?, queued: Int) async throws -> String? {
        do {
            try await start()
            let read = try await operations()
            guard let damaged else {
                return "opened the empty file as a new store: the \(queued) operation(s) it had queued and everything it kept are gone"
            }
            let id = read.first { $0.sequence == damaged.sequence }.map { $0.id.lowercasedString } ?? "nothing"
            return "read operation \(damaged.sequence), whose id was made unreadable, as \(id): it would go under a new idempotency key, and the server would run it again"
        } catch let error as FerryError where error.code == .storage {
            let named =
                damaged.map { error.message.contains("operation \($0.sequence) ") && error.message.contains("unreadable id") }
                ?? error.message.contains(store)
            if named { return nil }
            throw error
        }
    }
}
