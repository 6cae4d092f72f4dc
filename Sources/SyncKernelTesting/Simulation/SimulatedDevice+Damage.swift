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
        let store = runtime.store.path!
        await stop()
        let files = [store, store + "-wal", store + "-shm"]
        let copies = try files.filter { FileManager.default.fileExists(atPath: $0) }.map {
            ($0, try Data(contentsOf: URL(fileURLWithPath: $0)))
        }
        let damaged: QueuedOperation?
        switch damage {
        case .empty:
            damaged = nil
            for file in files.dropFirst() where FileManager.default.fileExists(atPath: file) {
                try FileManager.default.removeItem(atPath: file)
            }
            try Data().write(to: URL(fileURLWithPath: store))
        case .unreadableID:
            guard let first = queued.first else {
                try await start()
                return .nothingToDamage
            }
            damaged = first
            let queue = try DatabaseQueue(path: store)
            try await queue.write { db in
                try db.execute(
                    sql: "UPDATE kernel_operations SET id = 'edited by hand' WHERE seq = ?",
                    arguments: [first.sequence]
                )
            }
            try queue.close()
        }
        let refused: Bool
        do {
            try await start()
            let now = try await operations()
            refused = false
            if let damaged, let read = now.first(where: { $0.sequence == damaged.sequence }), read.id != damaged.id {
                return .wentOn("read operation \(damaged.sequence), whose id was made unreadable, as \(read.id.lowercasedString): it would go under a new idempotency key, and the server would run it again")
            }
        } catch let error as FerryError where error.code == .storage && Self.names(error, store: store, damaged) {
            refused = true
        }
        guard refused else {
            return .wentOn(
                damaged == nil
                    ? "opened the empty file as a new store: the \(queued.count) operation(s) it had queued and everything it kept are gone"
                    : "read its damaged store as a sound one"
            )
        }
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

    /// Whether `error` names what was damaged: the store's file, or the operation.
    private static func names(_ error: FerryError, store: String, _ damaged: QueuedOperation?) -> Bool {
        guard let damaged else { return error.message.contains(store) }
        return error.message.contains("operation \(damaged.sequence) ") && error.message.contains("unreadable id")
    }
}
