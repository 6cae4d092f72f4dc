import Foundation

extension JSON {
    /// Parses JSON bytes; `nil` when they are not valid JSON.
    ///
    /// What requests carry (objects, arrays, strings with the short escapes, integers, `true`,
    /// `false`, `null`) is read by a parser of our own, several times faster than Foundation's
    /// decoder. Anything else (a fraction or an exponent, a `\u` escape, a duplicate key, raw
    /// control characters, invalid UTF-8, nesting deeper than 500, an error) goes to Foundation's
    /// decoder, whose answer it is: the value is always the one Foundation makes of the bytes.
    static func decode(_ data: Data) -> JSON? {
        let parsed = data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            return parser.document()
        }
        return parsed ?? (try? decoder.decode(JSON.self, from: data))
    }
}

/// The parser of ``JSON/decode(_:)``: nil for anything it leaves to Foundation.
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func document() -> JSON? {
        guard let value = value(depth: 0) else { return nil }
        skipSpace()
        // Not a ternary with `nil`: JSON is ExpressibleByNilLiteral, and that nil would be `.null`.
        guard index == bytes.count else { return nil }
        return value
    }

    private mutating func value(depth: Int) -> JSON? {
        skipSpace()
        guard index < bytes.count, depth < 500 else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(JSON.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer()
        default: return nil
        }
    }

    private mutating func object(depth: Int) -> JSON? {
        index += 1
        var members: [String: JSON] = [:]
        skipSpace()
        if take(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")), let value = value(depth: depth + 1) else { return nil }
            // Two keys that Swift holds equal (the same text, or canonically equivalent).
            guard members.updateValue(value, forKey: key) == nil else { return nil }
            skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        return .object(members)
    }

    private mutating func array(depth: Int) -> JSON? {
        index += 1
        var elements: [JSON] = []
        skipSpace()
        if take(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            guard let element = value(depth: depth + 1) else { return nil }
            elements.append(element)
            skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return nil }
        return .array(elements)
    }

    /// A string from its opening quote: plain bytes are copied as they are, the escapes
    /// `\" \\ \/ \b \f \n \r \t` decoded; `\u`, control characters, DEL and invalid UTF-8 are
    /// left to Foundation.
    private mutating func string() -> String? {
        index += 1
        var escaped: [UInt8] = []
        var hasEscapes = false
        var runStart = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let tail = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                index += 1
                guard hasEscapes else { return String(validating: tail, as: UTF8.self) }
                escaped.append(contentsOf: tail)
                return String(validating: escaped, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count, let decoded = Self.shortEscapes[bytes[index + 1]] else { return nil }
                hasEscapes = true
                escaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                escaped.append(decoded)
                index += 2
                runStart = index
            case 0..<0x20, 0x7F:
                return nil
            default:
                index += 1
            }
        }
        return nil
    }

    private static let shortEscapes: [UInt8: UInt8] = [
        UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "\\"): UInt8(ascii: "\\"), UInt8(ascii: "/"): UInt8(ascii: "/"),
        UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
    ]

    /// An integer of at most 18 digits, without a leading zero, a fraction or an exponent.
    private mutating func integer() -> JSON? {
        let negative = take(UInt8(ascii: "-"))
        let start = index
        var magnitude = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            // Wrapping: more than 18 digits are refused below.
            magnitude = magnitude &* 10 &+ Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits <= 18, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            return nil
        }
        return .int(negative ? -magnitude : magnitude)
    }

    private mutating func literal(_ text: StaticString, _ value: JSON) -> JSON? {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count,
            UnsafeBufferPointer(rebasing: bytes[index..<index + count]).elementsEqual(
                UnsafeBufferPointer(start: text.utf8Start, count: count)
            )
        else { return nil }
        index += count
        return value
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }
}
