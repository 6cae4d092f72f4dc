import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A single line on standard error that long work redraws in place with `\r` ("sent 1,200
/// of 6,000"), shown only where a person watches it: on a terminal that takes escape
/// sequences. Piped, redirected or `TERM=dumb`, nothing is written.
public struct ProgressLine: Sendable {
    /// Whether progress is drawn in this process: standard error is a terminal that takes
    /// escape sequences (`Output.allowsEscapes`). Every progress display asks this.
    public static var isVisible: Bool { Output.allowsEscapes(on: STDERR_FILENO) }

    private let visible: Bool

    /// A progress line, drawn when `visible` (by default: when `isVisible`).
    public init(visible: Bool = ProgressLine.isVisible) {
        self.visible = visible
    }

    /// Replaces the line with `text`.
    public func draw(_ text: String) {
        guard visible else { return }
        FileHandle.standardError.write(Data(Self.redraw(text).utf8))
    }

    /// Clears the line, leaving the cursor at its start for what the command prints next.
    public func clear() {
        guard visible else { return }
        FileHandle.standardError.write(Data(Self.redraw("").utf8))
    }

    /// `text` as it redraws the line: back to its start, the old line cleared.
    public static func redraw(_ text: String) -> String { "\r\u{1B}[2K" + text }

    /// "`done` of `total`" after `verb`, with thousands separators: "sent 1,200 of 6,000".
    public static func count(_ verb: String, _ done: Int, of total: Int) -> String {
        "\(verb) \(grouped(done)) of \(grouped(total))"
    }

    /// `n` with thousands separators, the same on every machine: `1,200`.
    public static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (n < 0 ? "-" : "") + text
    }
}
