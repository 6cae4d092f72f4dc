import Foundation

/// Shows the answers of a watched read (`list --watch`): on a terminal each answer
/// replaces the last, under a line that says when it changed; piped, each is printed after
/// the last; with `--json`, each is one JSON object on a line of its own.
public struct WatchScreen: Sendable {
    let json: Bool
    let redraws: Bool

    /// A screen for `--json` or for people; redraws only where escapes are allowed.
    public init(json: Bool) {
        self.json = json
        self.redraws = !json && Output.allowsEscapes()
    }

    /// Shows one answer: `text` for people, `value` for `--json`.
    public func show<Value: Encodable>(_ text: String, json value: Value, at time: Date) throws {
        if json { return try Output.printJSONLine(value) }
        let stamp = "\(Self.clock.string(from: time))  watching; Ctrl-C stops"
        // Home, then clear the screen: the new answer takes the place of the last.
        let prefix = redraws ? "\u{1B}[H\u{1B}[2J" : ""
        FileHandle.standardOutput.write(Data("\(prefix)\(text)\(stamp)\n\(redraws ? "" : "\n")".utf8))
    }

    private static let clock: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }()
}
