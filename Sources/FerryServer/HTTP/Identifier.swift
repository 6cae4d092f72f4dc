/// Validation of client-chosen identifiers and file keys.
enum Identifier {
    /// Letters, digits, `.`, `_` and `-`; 1 to 128 characters; starts with a letter or
    /// digit; no `..`. Byte by byte: Foundation's `contains` showed on every request.
    static func isValid(_ value: String) -> Bool {
        let bytes = value.utf8
        guard let first = bytes.first, isAlphanumeric(first), bytes.count <= 128 else { return false }
        var previous = first
        for byte in bytes.dropFirst() {
            let dot = byte == UInt8(ascii: ".")
            guard isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || dot,
                !(dot && previous == UInt8(ascii: "."))
            else { return false }
            previous = byte
        }
        return true
    }

    /// `value` when valid, else a 400 with `code`.
    static func validated(_ value: String, code: String = "invalid_id", name: String = "id") throws(APIError) -> String
    {
        guard isValid(value) else {
            throw APIError.badRequest(
                code,
                "Invalid \(name) '\(value.prefix(64))': use 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit.",
                details: [name: .string(String(value.prefix(128)))]
            )
        }
        return value
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
