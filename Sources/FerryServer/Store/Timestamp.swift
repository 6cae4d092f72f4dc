import Foundation

/// ISO-8601 UTC timestamps with milliseconds, as the API writes them, e.g.
/// `2026-01-31T18:04:05.123Z`: two writes in the same second keep their order, which
/// last-write-wins needs.
///
/// Written by hand, with the bytes of Foundation's `Date.ISO8601FormatStyle` (milliseconds
/// truncated, not rounded): every write stamps one or more, and Foundation's formatter
/// goes through a calendar for each (`TimestampTests` compares the two).
enum Timestamp {
    static func string(_ date: Date) -> String {
        // A date counts from 2001 (as Foundation reads it): counting from 1970 in floating
        // point would round some fractions across a millisecond.
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite, abs(interval) < 1e12 else { return date.formatted(Self.foundation) }
        let seconds = interval.rounded(.down)
        let millisecond = min(999, Int(((interval - seconds) * 1000).rounded(.down)))
        let whole = Int(seconds) + 978_307_200
        let day = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let second = whole - day * 86_400
        let (year, month, dayOfMonth) = civil(daysSince1970: day)
        // Foundation's calendar is Julian before 1582-10-15.
        guard (1583...9999).contains(year) else { return date.formatted(Self.foundation) }
        return String(unsafeUninitializedCapacity: 24) { text in
            func put(_ value: Int, width: Int, at offset: Int) {
                var value = value
                for position in (offset..<offset + width).reversed() {
                    text[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, width: 4, at: 0)
            put(month, width: 2, at: 5)
            put(dayOfMonth, width: 2, at: 8)
            put(second / 3600, width: 2, at: 11)
            put(second / 60 % 60, width: 2, at: 14)
            put(second % 60, width: 2, at: 17)
            put(millisecond, width: 3, at: 20)
            (text[4], text[7], text[10]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"))
            (text[13], text[16], text[19], text[23]) = (
                UInt8(ascii: ":"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "Z")
            )
            return 24
        }
    }

    /// Foundation's own, for a year before 1583 or past 9999.
    private static let foundation = Date.ISO8601FormatStyle(
        includingFractionalSeconds: true,
        timeZone: TimeZone(identifier: "UTC") ?? .current
    )

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    private static func civil(daysSince1970: Int) -> (year: Int, month: Int, day: Int) {
        let days = daysSince1970 + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
