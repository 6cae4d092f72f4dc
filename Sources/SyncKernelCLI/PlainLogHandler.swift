import Foundation
import Logging

/// Log lines for people: `warning: MESSAGE` on standard error, without a timestamp, a
/// label or metadata. The handler of a command whose level is `notice` or above; at
/// `info`, `debug` and `trace` (or with `--verbose`) the raw timestamped lines are kept,
/// for whoever is debugging.
public struct PlainLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    public init(logLevel: Logger.Level) {
        self.logLevel = logLevel
    }

    /// The handler a command logs through at `level`: plain sentences at `notice` and above,
    /// the raw timestamped stream below.
    public static func handler(label: String, level: Logger.Level) -> any LogHandler {
        guard level > .info else {
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return PlainLogHandler(logLevel: level)
    }

    public func log(event: LogEvent) {
        FileHandle.standardError.write(Data(Self.line(level: event.level, message: "\(event.message)").utf8))
    }

    /// `warning: the message` and a newline.
    public static func line(level: Logger.Level, message: String) -> String {
        "\(level.rawValue): \(message)\n"
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
