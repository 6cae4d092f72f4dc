import Foundation

/// A JSON document the store keeps as text (a payload, a remote's entity, a declared
/// domain's document), printed as the JSON value it is rather than as a string of it.
///
/// Text that is not JSON comes out as a string.
public enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The document in `data`; a string of the text when it is not JSON.
    public init(parsing data: Data) {
        self = (try? JSONDecoder().decode(JSONValue.self, from: data)) ?? .string(String(decoding: data, as: UTF8.self))
    }

    /// The document in `text`; the text itself when it is not JSON.
    public init(parsing text: String) {
        self.init(parsing: Data(text.utf8))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            // Verbatim keys: a document's keys are its own, never converted to snake_case.
            var container = encoder.container(keyedBy: VerbatimKey.self)
            for (key, value) in members { try container.encode(value, forKey: VerbatimKey(key)) }
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            default: try container.encodeNil()
            }
        }
    }
}
