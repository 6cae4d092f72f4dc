import Foundation
import SyncKernel
import SyncKernelCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress bar on standard error for downloads a command makes.
enum TransferProgress {
    /// Only on a terminal that takes escape sequences: scripts and `TERM=dumb` get none
    /// (the decision of every progress display, `ProgressLine.isVisible`).
    static var isVisible: Bool { ProgressLine.isVisible }

    /// Draws each transfer's progress as it arrives; at the end clears the line only if a
    /// bar is left on it, so that a command that downloaded nothing writes nothing.
    static func draw(_ events: AsyncStream<SyncEvent>) async {
        var barShown = false
        for await event in events {
            if Task.isCancelled { break }
            guard case .transferProgress(let name, let received, let total) = event else { continue }
            let text = line(name: name, received: received, total: total)
            FileHandle.standardError.write(Data(text.utf8))
            barShown = text != ProgressLine.redraw("")
        }
        if barShown { FileHandle.standardError.write(Data(ProgressLine.redraw("").utf8)) }
    }

    /// `\r<name> [#####     ] 42% 1.2 MB / 2.9 MB`, cleared to the end of the line; a clean line once done.
    static func line(name: String, received: Int64, total: Int64?) -> String {
        let label = name.count > 30 ? "…" + name.suffix(29) : name
        guard let total, total > 0 else { return ProgressLine.redraw("\(label) \(size(received))") }
        // Done: leave the line clean for the command's output.
        guard received < total else { return ProgressLine.redraw("") }
        let share = min(1, Double(received) / Double(total))
        let filled = Int(share * 20)
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 20 - filled)
        return ProgressLine.redraw("\(label) [\(bar)] \(Int(share * 100))% \(size(received)) / \(size(total))")
    }

    static func size(_ bytes: Int64) -> String {
        bytes < 1_000_000
            ? String(format: "%.1f kB", Double(bytes) / 1000) : String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
