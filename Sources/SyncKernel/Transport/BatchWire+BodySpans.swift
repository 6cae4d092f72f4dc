import Foundation

extension BatchWire {
    /// Where each answer's `body` lies in a batch answer, in the answers' order: its bytes
    /// as the server wrote them, so that each sub-response's body is handed on without
    /// being serialized again (Foundation's `JSONSerialization` cost more than the rest of
    /// a batch's answer). Nil for an answer without a body or with `null`.
    ///
    /// `bytes` is already known to be JSON; anything this scanner does not expect (a key
    /// with an escape in it, another shape) makes it answer nil, and the caller serializes
    /// the parsed bodies instead.
    static func bodySpans(in bytes: Data) -> [Range<Data.Index>?]? {
        bytes.withUnsafeBytes { raw in
            var scanner = SpanScanner(bytes: raw)
            guard let spans = scanner.answers() else { return nil }
            return spans.map { $0.map { bytes.startIndex + $0.lowerBound..<bytes.startIndex + $0.upperBound } }
        }
    }
}

/// Walks a JSON text that is known to be valid, keeping the spans of answers' bodies.
private struct SpanScanner {
    let bytes: UnsafeRawBufferPointer
    var at = 0

    /// The top-level object's `responses`: each element's `body` span.
    mutating func answers() -> [Range<Int>?]? {
        var spans: [Range<Int>?]?
        let complete = members { key, scanner in
            guard key == "responses" else { return scanner.skipValue() != nil }
            spans = scanner.elements()
            return spans != nil
        }
        return complete ? spans : nil
    }

    /// The array at `at`: each element object's `body` span.
    private mutating func elements() -> [Range<Int>?]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var spans: [Range<Int>?] = []
        if take(UInt8(ascii: "]")) { return spans }
        repeat {
            var body: Range<Int>?
            let complete = members { key, scanner in
                guard let value = scanner.skipValue() else { return false }
                if key == "body" { body = scanner.isNull(value) ? nil : value }
                return true
            }
            guard complete else { return nil }
            spans.append(body)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? spans : nil
    }

    /// The members of the object at `at`, each handed to `member` with its key, `at` on its
    /// value; `member` moves past the value and says whether to go on.
    private mutating func members(_ member: (String, inout SpanScanner) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipSpace()
            guard let key = plainString(), take(UInt8(ascii: ":")) else { return false }
            skipSpace()
            guard member(key, &self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// The string at `at` when it has no escape in it; nil otherwise.
    private mutating func plainString() -> String? {
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return nil }
        let start = at + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
            if bytes[end] == UInt8(ascii: "\\") { return nil }
            end += 1
        }
        guard end < bytes.count else { return nil }
        at = end + 1
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    /// Moves past the value at `at`; its span.
    private mutating func skipValue() -> Range<Int>? {
        let start = at
        var depth = 0
        var inString = false
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            if inString {
                if byte == UInt8(ascii: "\\") {
                    at += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 { return start..<at }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 {  // the end of a number or literal, at its container's end
                    at -= 1
                    return start..<at
                }
                depth -= 1
                if depth == 0 { return start..<at }
            case UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                if depth == 0 {
                    at -= 1
                    return start..<at
                }
            default: break
            }
        }
        return depth == 0 && !inString && at > start ? start..<at : nil
    }

    private func isNull(_ span: Range<Int>) -> Bool {
        span.count == 4 && bytes[span.lowerBound] == UInt8(ascii: "n")
    }

    private mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { at += 1 }
    }

    /// Moves past `byte` (after any space) when it is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < bytes.count, bytes[at] == byte else { return false }
        at += 1
        return true
    }
}
