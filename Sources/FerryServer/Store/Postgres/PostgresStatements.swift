import Synchronization

/// The server's SQL with PostgreSQL's placeholders: `?` becomes `$1`, `$2`... in order and
/// `?N` becomes `$N`; a `?` inside a quoted literal stays. Each distinct statement is
/// translated once and kept (the server's SQL is a small fixed set).
final class PostgresStatements: Sendable {
    private let translated = Mutex<[String: String]>([:])

    /// `sql` with PostgreSQL's placeholders.
    func postgres(_ sql: String) -> String {
        if let known = translated.withLock({ $0[sql] }) { return known }
        let result = Self.translate(sql)
        translated.withLock { $0[sql] = result }
        return result
    }

    static func translate(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 16)
        var next = 1
        var quoted = false
        var characters = sql.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            if character == "'" { quoted.toggle() }
            guard character == "?", !quoted else {
                output.append(character)
                continue
            }
            var digits = ""
            while let digit = pending, digit.isASCII, digit.isNumber {
                digits.append(digit)
                pending = characters.next()
            }
            if digits.isEmpty {
                output += "$\(next)"
                next += 1
            } else {
                output += "$" + digits
            }
        }
        return output
    }
}
