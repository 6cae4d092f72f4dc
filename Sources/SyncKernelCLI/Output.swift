import Foundation
import SyncKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes what commands show: aligned tables for people, JSON for scripts, colour only on a terminal.
public struct Output: Sendable {
    public let json: Bool

    public init(json: Bool) {
        self.json = json
    }

    /// Whether standard output is a terminal.
    public static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether escape sequences (bold, redraws, progress lines) may go to the terminal on
    /// `descriptor`: it is a terminal, `TERM` is not `dumb` and `NO_COLOR` is not set.
    public static func allowsEscapes(on descriptor: Int32 = STDOUT_FILENO) -> Bool {
        isatty(descriptor) == 1 && ProcessEnvironment.value("TERM") != "dumb"
            && (ProcessEnvironment.value("NO_COLOR") ?? "").isEmpty
    }

    /// Prints `value` as JSON, as docs/json.md says: one object, snake_case keys in sorted
    /// order, ISO-8601 UTC dates, `null` for a known field without a value.
    public func printJSON<T: Encodable>(_ value: T) throws {
        print(String(decoding: try JSONOutput.encode(value), as: UTF8.self))
    }

    /// Prints `value` as JSON on one line, unbuffered: one event of a stream, seen as it happens.
    public static func printJSONLine<T: Encodable>(_ value: T) throws {
        FileHandle.standardOutput.write(try JSONOutput.encode(value, oneLine: true) + Data("\n".utf8))
    }

    /// Prints a line for people: to standard output, or to standard error with `--json`,
    /// where standard output carries the JSON alone.
    public func say(_ text: String) {
        if json { Self.warn(text) } else { print(text) }
    }

    /// Prints rows under a header, each column as wide as its widest cell on screen.
    public func table(_ header: [String], _ rows: [[String]]) {
        print(Self.render(header, rows), terminator: "")
    }

    /// Rows under a header, each column padded to its widest cell's display width (a wide
    /// CJK character or an emoji takes two columns, a combining mark none), two spaces apart.
    public static func render(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in
            all.map { $0.indices.contains(column) ? $0[column].displayWidth : 0 }.max() ?? 0
        }
        var text = ""
        for (index, row) in all.enumerated() {
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 || column >= widths.count ? cell : cell.padded(toWidth: widths[column])
            }
            let line = cells.joined(separator: "  ")
            text += (index == 0 ? bold(line) : line) + "\n"
        }
        return text
    }

    /// `text` in bold on a terminal, plain elsewhere.
    public static func bold(_ text: String) -> String {
        allowsEscapes() ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }

    /// Prints to standard error.
    public static func warn(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A short relative description of `date` against `now`: "in 5 s", "3 min ago".
    public static func relative(_ date: Date, now: Date) -> String {
        let seconds = date.timeIntervalSince(now)
        let magnitude = abs(seconds)
        let text: String
        switch magnitude {
        case ..<1: return "now"
        case ..<120: text = "\(Int(magnitude)) s"
        case ..<7200: text = "\(Int(magnitude / 60)) min"
        case ..<172_800: text = "\(Int(magnitude / 3600)) h"
        default: text = "\(Int(magnitude / 86_400)) d"
        }
        return seconds > 0 ? "in \(text)" : "\(text) ago"
    }
}
