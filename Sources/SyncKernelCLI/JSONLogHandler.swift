import ArgumentParser
import Foundation
import Logging

/// How log lines are written on standard error: `text` for people (plain sentences, or
/// timestamped lines at `info` and below), `json` for log collectors.
public enum LogFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case text, json

    /// The handler a command logs through at `level` in this format.
    public func handler(label: String, level: Logger.Level) -> any LogHandler {
        switch self {
        case .text: PlainLogHandler.handler(label: label, level: level)
        case .json: JSONLogHandler(label: label, logLevel: level)
        }
    }
}

/// One JSON object per log line on standard error:
/// `{"time":"2026-11-26T14:05:13.042Z","level":"warning","label":"ferry","message":"…","metadata":{…}}`,
/// keys sorted, `metadata` only when there is some (docs/json.md).
public struct JSONLogHandler: LogHandler {
    public let label: String
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    public init(label: String, logLevel: Logger.Level) {
        self.label = label
        self.logLevel = logLevel
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        FileHandle.standardError.write(
            Self.line(
                time: Date(),
                level: event.level,
                label: label,
                message: "\(event.message)",
                metadata: merged
            )
        )
    }

    /// The line for one event, newline included.
    public static func line(
        time: Date,
        level: Logger.Level,
        label: String,
        message: String,
        metadata: Logger.Metadata
    ) -> Data {
        var object: [String: Any] = [
            "time": time.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            "level": level.rawValue,
            "label": label,
            "message": message,
        ]
        if !metadata.isEmpty { object["metadata"] = metadata.mapValues(Self.plain) }
        var data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// A metadata value as JSON: text, a list or an object.
    private static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let value): value.description
        case .array(let values): values.map(plain)
        case .dictionary(let values): values.mapValues(plain)
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
}
