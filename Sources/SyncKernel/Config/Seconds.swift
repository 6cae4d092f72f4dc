import Foundation

/// A duration in configuration: a number of seconds or text such as `500ms`, `30s`, `5m`, `2h`, `90d`.
public struct Seconds: Codable, Sendable, Equatable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public var value: TimeInterval

    public init(_ value: TimeInterval) { self.value = value }
    public init(floatLiteral value: Double) { self.value = value }
    public init(integerLiteral value: Int) { self.value = TimeInterval(value) }

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
