import Foundation
import SyncKernelTesting
import Testing

@testable import FerryServer

/// The server's timestamps are Foundation's ISO-8601 with milliseconds, byte for byte:
/// stored `updated_at` values from before the hand-written formatter compare with new ones.
struct TimestampTests {
    private let foundation = Date.ISO8601FormatStyle(
        includingFractionalSeconds: true,
        timeZone: TimeZone(identifier: "UTC")!
    )

    @Test func writesWhatFoundationWritesForAwkwardInstants() {
        let instants: [Double] = [
            0, 0.0004, 0.0005, 0.9996, 59.9995, -0.0004, -1.5, -86_400, 951_782_400, 951_868_799.999,
            1_000_000_000.1235, 1_800_000_000.9999, 4_102_444_800, 253_402_300_799.999,
        ]
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            #expect(Timestamp.string(date) == date.formatted(foundation), "at \(instant)")
        }
    }

    /// A `Date` counts from 2001: instants given that way (as `Date()` and a test clock
    /// that adds milliseconds make them) round differently when read from 1970.
    @Test func writesWhatFoundationWritesForInstantsCountedFrom2001() {
        var generator = SeededRandom(seed: 2001)
        var dates = [
            Date(timeIntervalSinceReferenceDate: 800_000_000.001),
            Date(timeIntervalSinceReferenceDate: 820_335_372.9999999),
            Date(timeIntervalSinceReferenceDate: -62_135_596_800 - 978_307_200),
            Date(timeIntervalSinceReferenceDate: .infinity),
            Date(),
        ]
        for index in 0..<30_000 {
            let instant =
                index.isMultiple(of: 2)
                ? Double(Int.random(in: 0...1_000_000_000_000, using: &generator)) / 1000
                : Double.random(in: -1e10...1e10, using: &generator)
            dates.append(Date(timeIntervalSinceReferenceDate: instant))
        }
        for date in dates {
            #expect(Timestamp.string(date) == date.formatted(foundation), "at \(date.timeIntervalSinceReferenceDate)")
        }
    }

    @Test func writesWhatFoundationWritesForRandomInstants() {
        var generator = SeededRandom(seed: 20_261_127)
        for index in 0..<20_000 {
            let instant =
                index.isMultiple(of: 2)
                ? Double.random(in: -2e9...5e9, using: &generator)
                : Double(Int.random(in: 0...5_000_000_000_000, using: &generator)) / 1000
            let date = Date(timeIntervalSince1970: instant)
            #expect(Timestamp.string(date) == date.formatted(foundation), "at \(instant)")
        }
    }
}
