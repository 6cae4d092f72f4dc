import Foundation

/// A size in bytes in configuration: a number of bytes or text such as `500MB`, `120 GB`, `64KiB`.
///
/// `KB`, `MB`, `GB`, `TB` are powers of 1000; `KiB`, `MiB`, `GiB`, `TiB` powers of 1024; `B` is bytes.
public struct ByteCount: Codable, Sendable, Equatable, Comparable, ExpressibleByIntegerLiteral, CustomStringConvertible
{
    /// The number of bytes.
    public var bytes: Int64

    /// A size of `bytes` bytes.
    public init(_ bytes: Int64) { self.bytes = bytes }
    /// A size of `value` bytes.
    public init(integerLiteral value: Int64) { self.bytes = value }

    /// `value` megabytes (10^6 bytes).
    public static func megabytes(_ value: Int64) -> ByteCount { ByteCount(value * 1_000_000) }

    /// Decodes a non-negative whole number of bytes, or text with a unit such as `500MB`;
    /// text that is not a size is an error that says what to write.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self), number >= 0 {
            bytes = number
            return
        }
        let text = try container.decode(String.self)
        guard let parsed = Self.parse(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "'\(text)' is not a size; write a number of bytes or e.g. 500MB, 2GB, 64KiB"
            )
        }
        bytes = parsed
    }

    /// Encodes the number of bytes, without a unit.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bytes)
    }

    /// Parses `500MB`, `1.5 GB`, `64KiB`, `2048`; nil for anything else or a negative size.
    ///
    /// Units are matched whatever their case (`500mb` is `500MB`); a fraction, allowed only
    /// with a unit, is rounded down to whole bytes.
    public static func parse(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [
            ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("TiB", 1_099_511_627_776),
            ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12), ("B", 1),
        ]
        for (suffix, factor) in units where trimmed.uppercased().hasSuffix(suffix.uppercased()) {
            let number = trimmed.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
            guard let value = Double(number), value.isFinite, value >= 0, value * factor < 9e18 else { return nil }
            return Int64(value * factor)
        }
        guard let value = Int64(trimmed), value >= 0 else { return nil }
        return value
    }

    /// Orders sizes by their number of bytes.
    ///
    /// - Parameters:
    ///   - lhs: the size that may be the smaller.
    ///   - rhs: the size it is compared with.
    public static func < (lhs: ByteCount, rhs: ByteCount) -> Bool { lhs.bytes < rhs.bytes }

    /// A short human form: `512 B`, `3.2 MB`, `1.10 GB`.
    public var description: String { Self.format(bytes) }

    /// `bytes` in a short human form (powers of 1000): `512 B`, `64.0 kB`, `3.2 MB`, `1.10 GB`;
    /// sizes beyond are still counted in GB.
    public static func format(_ bytes: Int64) -> String {
        let value = Double(bytes)
        switch value {
        case ..<1000: return "\(bytes) B"
        case ..<1e6: return String(format: "%.1f kB", value / 1e3)
        case ..<1e9: return String(format: "%.1f MB", value / 1e6)
        default: return String(format: "%.2f GB", value / 1e9)
        }
    }
}
