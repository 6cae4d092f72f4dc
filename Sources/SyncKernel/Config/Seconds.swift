import Foundation

/// A duration in configuration: a number of seconds or text such as `500ms`, `30s`, `5m`, `2h`, `90d`.
public struct Seconds: Codable, Sendable, Equatable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// The duration in seconds.
    public var value: TimeInterval

    /// A duration of `value` seconds.
    public init(_ value: TimeInterval) { self.value = value }
    /// A duration of `value` seconds, from a literal such as `0.5`.
    public init(floatLiteral value: Double) { self.value = value }
    /// A duration of `value` seconds, from a literal such as `30`.
    public init(integerLiteral value: Int) { self.value = TimeInterval(value) }

    /// Decodes a non-negative number of seconds, or text with a unit (`ms`, `s`, `m`, `h`, `d`);
    /// anything else is an error that says what to write.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self), number.isFinite, number >= 0 {
            value = number
            return
        }
        let text = try container.decode(String.self)
        guard let parsed = Self.parse(text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "'\(text)' is not a duration; write a number of seconds or e.g. 500ms, 30s, 5m, 2h, 90d"
            )
        }
        value = parsed
    }

    /// Encodes the number of seconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    static func parse(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            guard let number = Double(trimmed.dropLast(suffix.count)), number.isFinite, number >= 0 else { return nil }
            return number * factor
        }
        return nil
    }
}
