import Foundation

/// A strict reader of JSON (RFC 8259) over bytes that builds nothing it is not asked for:
/// it checks values and reads past them, giving their spans, so that a caller takes the
/// few strings and numbers it needs and hands the rest on as written. Trailing commas,
/// invalid UTF-8, unpaired surrogates, raw control characters in strings and nesting past
/// ``maxDepth`` are not JSON here.
struct JSONScanner {
    /// How deep arrays and objects may nest, as a guard for the stack.
    static let maxDepth = 512

    let bytes: UnsafeRawBufferPointer
    /// Where the scanner is.
    private(set) var at = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// Whether `data` is one JSON value, with space around it at most.
    static func isJSON(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            scanner.skipSpace()
            guard scanner.skipValue(depth: 0) != nil else { return false }
            scanner.skipSpace()
            return scanner.atEnd
        }
    }

    /// Whether every byte was read.
    var atEnd: Bool { at == bytes.count }

    /// The byte at the scanner; nil at the end.
    var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    /// The members of the object at `at` (which is `{`), each handed to `member` with its
    /// key and `at` on its value; `member` reads past the value and says whether it was
    /// JSON. Whether the whole object was.
    mutating func members(depth: Int, _ member: (String, inout JSONScanner) -> Bool) -> Bool {
        guard depth <= Self.maxDepth, take(UInt8(ascii: "{")) else { return false }
        skipSpace()
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipSpace()
            guard let key = string() else { return false }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipSpace()
            guard member(key, &self) else { return false }
            skipSpace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// Reads past the JSON value at `at`, checking it; its span, or nil when it is not JSON.
    /// `depth` is that of the value's container.
    mutating func skipValue(depth: Int) -> Range<Int>? {
        let start = at
        guard let byte = peek else { return nil }
        switch byte {
        case UInt8(ascii: "{"):
            guard members(depth: depth + 1, { _, reader in reader.skipValue(depth: depth + 1) != nil }) else { return nil }
        case UInt8(ascii: "["):
            guard depth + 1 <= Self.maxDepth else { return nil }
            at += 1
            skipSpace()
            if !take(UInt8(ascii: "]")) {
                repeat {
                    skipSpace()
                    guard skipValue(depth: depth + 1) != nil else { return nil }
                    skipSpace()
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "]")) else { return nil }
            }
        case UInt8(ascii: "\""):
            guard skipString() else { return nil }
        case UInt8(ascii: "t"): guard literal("true") else { return nil }
        case UInt8(ascii: "f"): guard literal("false") else { return nil }
        case UInt8(ascii: "n"): guard literal("null") else { return nil }
        default: guard number() else { return nil }
        }
        return start..<at
    }

    func isNull(_ span: Range<Int>) -> Bool {
        span.count == 4 && bytes[span.lowerBound] == UInt8(ascii: "n")
    }

    /// The number spanning `span` when it is a whole number that fits an `Int` (`200`, as
    /// JSONSerialization also read `200.0` and `2e2`); nil for anything else.
    func integer(_ span: Range<Int>) -> Int? {
        guard let start = span.first, bytes[start] == UInt8(ascii: "-") || isDigit(bytes[start]) else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[span]), as: UTF8.self)
        if let value = Int(text) { return value }
        guard let value = Double(text), value.rounded() == value, let whole = Int(exactly: value) else { return nil }
        return whole
    }

    /// Reads past a number as RFC 8259 writes one.
    private mutating func number() -> Bool {
        _ = take(UInt8(ascii: "-"))
        guard let first = peek, isDigit(first) else { return false }
        at += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if take(UInt8(ascii: ".")) {
            guard let digit = peek, isDigit(digit) else { return false }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            at += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { at += 1 }
            guard let digit = peek, isDigit(digit) else { return false }
            skipDigits()
        }
        return true
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private mutating func skipDigits() {
        while let byte = peek, isDigit(byte) { at += 1 }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[at + offset] != word.utf8Start[offset] { return false }
        at += count
        return true
    }

    /// Reads past the string at `at`, checking its escapes and its UTF-8.
    private mutating func skipString() -> Bool {
        var ignored: [UInt8]? = nil
        return readString(into: &ignored)
    }

    /// The string at `at`, its escapes decoded; nil when it is not a JSON string.
    mutating func string() -> String? {
        let start = at + 1
        var decoded: [UInt8]? = nil
        guard readString(into: &decoded) else { return nil }
        guard let decoded else {
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<at - 1]), as: UTF8.self)
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Reads past the string at `at`. Its text goes to `decoded` once an escape is met
    /// (`decoded` stays nil for a string with none: its bytes are the text).
    private mutating func readString(into decoded: inout [UInt8]?) -> Bool {
        guard take(UInt8(ascii: "\"")) else { return false }
        let start = at
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "\""):
                at += 1
                return true
            case UInt8(ascii: "\\"):
                if decoded == nil { decoded = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<at])) }
                at += 1
                guard escape(into: &decoded!) else { return false }
            case 0..<0x20:
                return false
            case 0..<0x80:
                decoded?.append(byte)
                at += 1
            default:
                let sequence = at
                guard skipMultibyte() else { return false }
                decoded?.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[sequence..<at]))
            }
        }
        return false
    }

    /// The escape after a backslash, decoded into `out`.
    private mutating func escape(into out: inout [UInt8]) -> Bool {
        guard let byte = peek else { return false }
        at += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return false }
            var scalar = UInt32(unit)
            if (0xD800..<0xDC00).contains(unit) {
                // A high surrogate: its low one must follow (unpaired surrogates are not text).
                guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low)
                else { return false }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00..<0xE000).contains(unit) {
                return false
            }
            guard let character = Unicode.Scalar(scalar) else { return false }
            out.append(contentsOf: String(Character(character)).utf8)
        default:
            return false
        }
        return true
    }

    private mutating func hex4() -> UInt16? {
        guard at + 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
            at += 1
        }
        return value
    }

    /// Reads past one UTF-8 sequence of two to four bytes, refusing overlong forms,
    /// surrogates and code points past U+10FFFF.
    private mutating func skipMultibyte() -> Bool {
        let lead = bytes[at]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return false
        }
        guard at + length <= bytes.count, second.contains(bytes[at + 1]) else { return false }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[at + offset]) { return false }
        at += length
        return true
    }

    mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { at += 1 }
    }

    /// Moves past `byte` when it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        at += 1
        return true
    }
}
