import Foundation

/// ISO-8601 UTC timestamps with milliseconds, as the API writes them, e.g.
/// `2026-01-31T18:04:05.123Z`: two writes in the same second keep their order, which
/// last-write-wins needs.
enum Timestamp {
    private static let style = Date.ISO8601FormatStyle(
        includingFractionalSeconds: true,
        timeZone: TimeZone(identifier: "UTC") ?? .current
    )

    static func string(_ date: Date) -> String {
        date.formatted(style)
    }
}
