import Foundation
import Synchronization

/// Waits until `condition` holds, looking again every millisecond; fails after `seconds`
/// of wall time. For a state another task reaches without any event to await: the result
/// never depends on how long the wait is, only the time to notice it does.
func eventually(_ what: String, within seconds: TimeInterval = 180, _ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        guard Date() < deadline else { throw Timeout(what: what) }
        try await Task.sleep(for: .milliseconds(1))
    }
}

struct Timeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Lines a printer wrote, collected for a test.
final class WrittenLines: Sendable {
    private let lines = Mutex<[String]>([])

    var all: [String] { lines.withLock { $0 } }

    func append(_ line: String) { lines.withLock { $0.append(line) } }
}
