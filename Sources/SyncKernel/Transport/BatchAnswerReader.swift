import Foundation

/// Reads a batch answer (docs/protocol.md, "Batch") in one pass over its bytes, with a
/// ``JSONScanner``: each answer's status, its string headers, and its body's bytes as the
/// server wrote them, so that no body is parsed and serialized again before its plugin
/// decodes it. Foundation's `JSONSerialization` did that, at about a fifth of the
/// kernel's own cost in a batched drain (ferry-bench).
///
/// Anything else (text that is not JSON, another shape, a body in base64 that is not
/// base64) reads as nil.
enum BatchAnswerReader {
    /// One answer as read.
    struct Answer {
        var status: Int?
        /// The string headers, their names lower-cased.
        var headers: [String: String] = [:]
        /// The bytes of `body` as the server wrote them; nil without one or for `null`.
        var body: Data?
        /// `body_base64` when it is a string.
        var base64: String?
        /// Where `body` lies in the answer, while it is read.
        fileprivate var bodySpan: Range<Int>?
    }

    /// The answers of `data`, in order; nil unless it is a JSON object whose `responses` is
    /// an array of objects.
    static func answers(in data: Data) -> [Answer]? {
        data.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            return document(&scanner)?.map { answer in
                var answer = answer
                answer.body = answer.bodySpan.map { Data(UnsafeRawBufferPointer(rebasing: raw[$0])) }
                return answer
            }
        }
    }

    private static func document(_ scanner: inout JSONScanner) -> [Answer]? {
        scanner.skipSpace()
        var answers: [Answer]?
        guard scanner.peek == UInt8(ascii: "{") else { return nil }
        let complete = scanner.members(depth: 1) { key, scanner in
            if key == "responses" {
                answers = answerList(&scanner)
                return answers != nil
            }
            return scanner.skipValue(depth: 1) != nil
        }
        scanner.skipSpace()
        return complete && scanner.atEnd ? answers : nil
    }

    private static func answerList(_ scanner: inout JSONScanner) -> [Answer]? {
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        var answers: [Answer] = []
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "]")) { return answers }
        repeat {
            scanner.skipSpace()
            guard scanner.peek == UInt8(ascii: "{"), let answer = answer(&scanner) else { return nil }
            answers.append(answer)
            scanner.skipSpace()
        } while scanner.take(UInt8(ascii: ","))
        return scanner.take(UInt8(ascii: "]")) ? answers : nil
    }

    private static func answer(_ scanner: inout JSONScanner) -> Answer? {
        var answer = Answer()
        let complete = scanner.members(depth: 3) { key, scanner in
            switch key {
            case "status":
                guard let span = scanner.skipValue(depth: 3) else { return false }
                answer.status = scanner.integer(span)
            case "headers":
                guard scanner.peek == UInt8(ascii: "{") else { return scanner.skipValue(depth: 3) != nil }
                guard let headers = stringMembers(&scanner, depth: 4) else { return false }
                answer.headers = headers
            case "body":
                guard let span = scanner.skipValue(depth: 3) else { return false }
                answer.bodySpan = scanner.isNull(span) ? nil : span
            case "body_base64":
                if scanner.peek == UInt8(ascii: "\"") {
                    guard let text = scanner.string() else { return false }
                    answer.base64 = text
                } else {
                    guard scanner.skipValue(depth: 3) != nil else { return false }
                    answer.base64 = nil
                }
            default:
                return scanner.skipValue(depth: 3) != nil
            }
            return true
        }
        return complete ? answer : nil
    }

    /// The members of the object at the scanner whose values are strings, their names
    /// lower-cased; the others are read past.
    private static func stringMembers(_ scanner: inout JSONScanner, depth: Int) -> [String: String]? {
        var strings: [String: String] = [:]
        let complete = scanner.members(depth: depth) { name, scanner in
            guard scanner.peek == UInt8(ascii: "\"") else { return scanner.skipValue(depth: depth) != nil }
            guard let value = scanner.string() else { return false }
            strings[name.lowercased()] = value
            return true
        }
        return complete ? strings : nil
    }
}
