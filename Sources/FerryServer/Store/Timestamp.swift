import Foundation

/// ISO-8601 UTC timestamps as the API writes them, e.g. `2026-01-31T18:04:05Z`.
enum Timestamp {
    static func string(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .current))
    }
}
