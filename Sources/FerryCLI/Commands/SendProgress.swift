import Foundation
import SyncKernel
import SyncKernelCLI

/// The progress of `ferry run --once` on standard error, on a terminal only
/// (`ProgressLine.isVisible`): "sent 1,200 of 6,000", redrawn in place, cleared at the end.
enum SendProgress {
    /// Runs `work` while drawing how many of the operations due at its start were sent.
    static func whileRunning<Result: Sendable>(
        runtime: FerryRuntime,
        line: ProgressLine = ProgressLine(),
        _ work: @Sendable () async throws -> Result
    ) async throws -> Result {
        guard ProgressLine.isVisible else { return try await work() }
        let status = try await QueueInspector(runtime: runtime).status()
        let total = status.plugins.reduce(0) { $0 + $1.pending + $1.queued }
        guard total > 0 else { return try await work() }
        let events = runtime.events.subscribe()
        let drawing = Task { await draw(events, total: total, line: line, clock: runtime.clock) }
        defer {
            drawing.cancel()
            line.clear()
        }
        return try await work()
    }

    /// Redraws the line on each operation settled, at most ten times a second on `clock`.
    static func draw(_ events: AsyncStream<SyncEvent>, total: Int, line: ProgressLine, clock: any KernelClock) async {
        var counter = Counter(total: total)
        var drawnAt = Date.distantPast
        line.draw(counter.text)
        for await event in events {
            if Task.isCancelled { return }
            guard counter.record(event) else { continue }
            let now = clock.now()
            if now.timeIntervalSince(drawnAt) >= 0.1 || counter.sent >= total {
                line.draw(counter.text)
                drawnAt = now
            }
        }
    }

    /// What the line says: operations sent of those due at the start and, once a file
    /// arrived, the downloads: "sent 3 of 9, downloaded 2 files (528.2 kB)".
    struct Counter: Sendable, Equatable {
        let total: Int
        private(set) var sent = 0
        private(set) var downloads = TransferTally()

        init(total: Int) {
            self.total = total
        }

        /// Counts a sent operation or a finished download; false for any other event.
        mutating func record(_ event: SyncEvent) -> Bool {
            if downloads.record(event) { return true }
            guard case .sent = event else { return false }
            sent += 1
            return true
        }

        var text: String {
            let operations = ProgressLine.count("sent", min(sent, total), of: total)
            return downloads.files == 0 ? operations : "\(operations), \(downloads)"
        }
    }
}
