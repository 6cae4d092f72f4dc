import Foundation

extension JSON {
    /// Compact JSON bytes with sorted keys, so equal values encode to equal bytes.
    ///
    /// The bytes are exactly those of Foundation's `JSONEncoder` with `.sortedKeys` and
    /// `.withoutEscapingSlashes` (stored idempotency fingerprints hash them; the tests compare
    /// the two): keys in the order of their UTF-8 bytes, `"`, `\` and control characters
    /// escaped, everything else as it is, a whole double without `.0`. A value this writer does
    /// not take (a double that is not finite, nesting deeper than Foundation allows) goes
    /// through Foundation, whose answer it is.
    func encoded() -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        guard Self.write(self, to: &bytes, depth: 0) else {
            return (try? Self.encoder.encode(self)) ?? Data("null".utf8)
        }
        return Data(bytes)
    }

    /// Appends `value`'s encoding to `bytes`; false, with `bytes` in an unspecified state, for
    /// a value that only Foundation encodes.
    private static func write(_ value: JSON, to bytes: inout [UInt8], depth: Int) -> Bool {
        switch value {
        case .null:
            bytes.append(contentsOf: "null".utf8)
        case .bool(let value):
            bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .int(let value):
            bytes.append(contentsOf: String(value).utf8)
        case .double(let value):
            guard value.isFinite else { return false }
            let text = value.description
            bytes.append(contentsOf: text.hasSuffix(".0") ? text.utf8.dropLast(2) : text.utf8[...])
        case .string(let value):
            writeString(value, to: &bytes)
        case .array(let elements):
            // Foundation refuses 512 levels; leave the exact limit to it.
            guard depth < 500 else { return false }
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                guard write(element, to: &bytes, depth: depth + 1) else { return false }
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            guard depth < 500 else { return false }
            bytes.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                guard write(member.value, to: &bytes, depth: depth + 1) else { return false }
            }
            bytes.append(UInt8(ascii: "}"))
        }
        return true
    }

    /// A string in quotes: `"` and `\` escaped, `\b \f \n \r \t`, other control characters as
    /// `\u00xx` (lowercase hex); `/`, DEL and non-ASCII as they are.
    private static func writeString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                switch byte {
                case 0x22: bytes.append(contentsOf: #"\""#.utf8)
                case 0x5C: bytes.append(contentsOf: #"\\"#.utf8)
                case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
                case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
                case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
                case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
                case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
                default:
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
