import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// How save, unsave and toggle report.
enum SaveChangePrinter {
    static func print(_ change: SaveChange, json: Bool) throws {
        if json {
            try Output(json: true).printJSON(change)
            return
        }
        let state = change.saved ? "saved" : "not saved"
        let line: String
        switch change.sync {
        case "unchanged": line = "\(change.id) was already \(state)"
        case "cancelled": line = "\(change.id) is \(state) (this undid an unsent change: nothing to send)"
        default: line = "\(change.id) is \(state) (synced in the background by `ferry run`)"
        }
        Swift.print(line)
    }
}
