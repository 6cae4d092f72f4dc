/// Validation of client-chosen identifiers and file keys.
enum Identifier {
    /// Letters, digits, `.`, `_` and `-`; 1 to 128 characters; starts with a letter or digit.
    static func isValid(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, value.unicodeScalars.count <= 128 else { return false }
        guard isAlphanumeric(first) else { return false }
        return value.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "." || $0 == "_" || $0 == "-" }
            && !value.contains("..")
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

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
