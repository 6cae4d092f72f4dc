import Foundation

/// A JSON value: what the server stores for entities and sends on the wire.
///
/// Integers and doubles are kept apart so that `949` round-trips as `949`, not `949.0`.
enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])
}

extension JSON: Codable {
    /// Tries the kinds in the order they are most common in requests: each failed attempt
    /// throws (and builds a coding path), which made decoding an object cost five errors.
    /// The kinds are disjoint but for integers and doubles, so only `Int` must come before
    /// `Double` (`949` stays an integer).
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([String: JSON].self) {
            self = .object(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else {
            self = .bool(try container.decode(Bool.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSON {
    /// The value at `key` when this is an object; `nil` otherwise or when absent.
    subscript(key: String) -> JSON? {
        get {
            guard case .object(let object) = self else { return nil }
            return object[key]
        }
        set {
            guard case .object(var object) = self else { return }
            // Let go of this value's reference first, or the dictionary is copied on every set.
            self = .null
            object[key] = newValue
            self = .object(object)
        }
    }

    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var intValue: Int? {
        if case .int(let value) = self { return value }
        return nil
    }

    var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var objectValue: [String: JSON]? {
        if case .object(let value) = self { return value }
        return nil
    }

    var isNull: Bool { self == .null }

    /// A short name of this value's type, for error messages.
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Foundation's encoder, whose bytes ``encoded()`` writes (it encodes the values the
    /// writer does not take).
    static let encoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    /// Foundation's decoder, which ``decode(_:)`` leaves what its own parser does not take to.
    static let decoder = JSONDecoder()
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(floatLiteral value: Double) { self = .double(value) }
    init(arrayLiteral elements: JSON...) { self = .array(elements) }
    init(nilLiteral: ()) { self = .null }
    init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSON {
    /// `.string(value)` or `.null` when `value` is nil.
    static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
    /// `.int(value)` or `.null` when `value` is nil.
    static func optional(_ value: Int?) -> JSON { value.map(JSON.int) ?? .null }
}
