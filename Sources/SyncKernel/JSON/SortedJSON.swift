import Foundation

/// JSON text with sorted keys, byte for byte what `JSONSerialization.data(withJSONObject:
/// options: [.sortedKeys, .fragmentsAllowed])` writes (with `.withoutEscapingSlashes` when
/// `escapingSlashes` is false), about twenty times faster.
///
/// Foundation's writer on Linux costs over 100 µs for an entity of a dozen fields, most of
/// it casting each value and sorting the keys with a locale-aware comparison; a pull hands
/// every entity of its pages to its plugin in this form, so that was most of a page's
/// cost (docs/performance.md, round 14). Here strings, whole numbers, booleans, null,
/// arrays and objects are written directly; any other value (a floating-point number that
/// is not a Swift `Double`, a decimal, something JSON cannot hold) is handed to Foundation
/// alone, so it is written or refused exactly as before. Keys are put in Foundation's
/// order (`SortedKeyOrder`).
public enum SortedJSON {
    /// `value` as JSON text with its objects' keys sorted; throws what Foundation throws for
    /// a value JSON cannot hold.
    public static func data(_ value: Any, escapingSlashes: Bool = true) throws -> Data {
        var writer = Writer(escapingSlashes: escapingSlashes)
        try writer.write(value)
        return Data(writer.bytes)
    }

    private struct Writer {
        let escapingSlashes: Bool
        var bytes: [UInt8] = []

        init(escapingSlashes: Bool) {
            self.escapingSlashes = escapingSlashes
            bytes.reserveCapacity(256)
        }

        mutating func write(_ value: Any) throws {
            // What a parse of JSON holds is told apart by its exact type, which costs
            // next to nothing; anything else goes through the casts below.
            let type = Swift.type(of: value)
            if type == String.self {
                writeString(value as! String)
            } else if type == [String: Any].self {
                try writeObject(value as! [String: Any])
            } else if type == Self.numberType || type == Self.booleanType {
                try writeNumber(value as! NSNumber)
            } else if type == Int.self {
                bytes.append(contentsOf: String(value as! Int).utf8)
            } else if type == Bool.self {
                bytes.append(contentsOf: (value as! Bool ? "true" : "false").utf8)
            } else if type == Double.self, (value as! Double).isFinite {
                var text = (value as! Double).description
                if text.hasSuffix(".0") { text.removeLast(2) }
                bytes.append(contentsOf: text.utf8)
            } else if type == [Any].self {
                try writeArray(value as! [Any])
            } else if value is NSNull {
                bytes.append(contentsOf: "null".utf8)
            } else if let string = value as? String {
                writeString(string)
            } else if let object = value as? [String: Any] {
                try writeObject(object)
            } else if let array = value as? [Any] {
                try writeArray(array)
            } else if let number = value as? NSNumber {
                try writeNumber(number)
            } else {
                try writeThroughFoundation(value)
            }
        }

        private static let numberType = Swift.type(of: NSNumber(value: 1))
        private static let booleanType = Swift.type(of: NSNumber(value: true))

        private mutating func writeNumber(_ number: NSNumber) throws {
            if let text = Self.wholeOrBoolean(number) {
                bytes.append(contentsOf: text.utf8)
            } else {
                try writeThroughFoundation(number)
            }
        }

        /// A value written by Foundation alone: a floating-point or decimal number, or
        /// something JSON cannot hold, which Foundation refuses.
        private mutating func writeThroughFoundation(_ value: Any) throws {
            var options: JSONSerialization.WritingOptions = [.fragmentsAllowed]
            if !escapingSlashes { options.insert(.withoutEscapingSlashes) }
            bytes.append(contentsOf: try JSONSerialization.data(withJSONObject: value, options: options))
        }

        /// A boolean or a whole number as Foundation writes it; nil for any other number.
        private static func wholeOrBoolean(_ number: NSNumber) -> String? {
            if Swift.type(of: number) == booleanType {
                return number.boolValue ? "true" : "false"
            }
            switch number.objCType.pointee {
            case CChar(UInt8(ascii: "c")), CChar(UInt8(ascii: "s")), CChar(UInt8(ascii: "i")),
                CChar(UInt8(ascii: "l")), CChar(UInt8(ascii: "q")):
                return String(number.int64Value)
            case CChar(UInt8(ascii: "C")), CChar(UInt8(ascii: "S")), CChar(UInt8(ascii: "I")),
                CChar(UInt8(ascii: "L")), CChar(UInt8(ascii: "Q")):
                return String(number.uint64Value)
            default:
                return nil
            }
        }

        private mutating func writeObject(_ object: [String: Any]) throws {
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in SortedKeyOrder.keys(of: object).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(key)
                bytes.append(UInt8(ascii: ":"))
                try write(object[key]!)
            }
            bytes.append(UInt8(ascii: "}"))
        }

        private mutating func writeArray(_ array: [Any]) throws {
            bytes.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        }

        private mutating func writeString(_ string: String) {
            bytes.append(UInt8(ascii: "\""))
            let utf8 = string.utf8
            if !utf8.contains(where: needsEscape) {
                bytes.append(contentsOf: utf8)
            } else {
                for byte in utf8 { appendEscaped(byte) }
            }
            bytes.append(UInt8(ascii: "\""))
        }

        private func needsEscape(_ byte: UInt8) -> Bool {
            byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (byte == UInt8(ascii: "/") && escapingSlashes)
        }

        private mutating func appendEscaped(_ byte: UInt8) {
            guard needsEscape(byte) else { return bytes.append(byte) }
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x00..<0x20:
                // Foundation writes the other control characters as \u00XX, in lower case.
                bytes.append(contentsOf: "u00".utf8)
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }

        private static let hexDigits = Array("0123456789abcdef".utf8)
    }
}
