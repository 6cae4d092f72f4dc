import Foundation

/// The one JSON configuration of every `--json`: snake_case keys in sorted order, ISO-8601
/// UTC dates, `null` for a known field without a value, documents as JSON values.
///
/// docs/json.md describes the convention and each command's shape.
public enum JSONOutput {
    /// One object over several indented lines: what a command prints.
    static let document = encoder([.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    /// One object on one line: an event of `ferry run --json`, an error on standard error.
    static let line = encoder([.sortedKeys, .withoutEscapingSlashes])

    private static func encoder(_ formatting: JSONEncoder.OutputFormatting) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        encoder.dateEncodingStrategy = .iso8601
        encoder.keyEncodingStrategy = .custom { path in
            guard let key = path.last else { return VerbatimKey("") }
            return key is VerbatimKey ? key : VerbatimKey(snakeCased(key.stringValue))
        }
        return encoder
    }

    /// `value` as the JSON a command prints: indented, or on one line.
    public static func encode<T: Encodable>(_ value: T, oneLine: Bool = false) throws -> Data {
        try (oneLine ? line : document).encode(NullsKept(value))
    }

    /// `userID` → `user_id`, `hasPendingWrites` → `has_pending_writes`, `URLString` →
    /// `url_string`; a key already in snake_case stays as it is.
    static func snakeCased(_ key: String) -> String {
        let characters = Array(key)
        var result = ""
        for (index, character) in characters.enumerated() {
            guard character.isUppercase else {
                result.append(character)
                continue
            }
            let previous = index > 0 ? characters[index - 1] : nil
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let startsWord =
                previous.map { $0.isLowercase || $0.isNumber || ($0.isUppercase && next?.isLowercase == true) } ?? false
            if startsWord { result.append("_") }
            result += character.lowercased()
        }
        return result
    }
}

/// A key written exactly as given: the keys of documents and of maps that hold data
/// (plugin names, ids), which the snake_case conversion must not touch.
struct VerbatimKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
}
