import Foundation
import SyncKernelTesting
import Testing

@testable import SyncKernel

/// The batch answer reader against Foundation's `JSONSerialization`, which read batch
/// answers before it: on answers drawn at random and on each of them broken at random, it
/// reads what Foundation reads and refuses what Foundation refuses, but for the trailing
/// commas Foundation lets through.
@Suite("Batch answers read without JSONSerialization")
struct BatchAnswerReaderTests {
    @Test func randomAnswersReadAsFoundationReadsThem() throws {
        var random = SeededRandom(seed: 0xBA7C_4A45)
        for _ in 0..<2000 {
            let (text, count) = Self.answer(using: &random)
            let data = Data(text.utf8)
            let expected = try #require(Self.foundation(data, count: count), "Foundation refused \(text)")
            let read = try #require(BatchWire.decode(data, count: count), "refused \(text)")
            #expect(Self.same(read, expected), "\(text)")
            #expect(JSONScanner.isJSON(data), "\(text)")
        }
    }

    @Test func brokenAnswersAreRefusedAsFoundationRefusesThem() throws {
        var random = SeededRandom(seed: 0x0B20_4E27)
        var refused = 0
        for _ in 0..<6000 {
            let (text, count) = Self.answer(using: &random)
            let data = Self.broken(Array(text.utf8), using: &random)
            let expected = Self.foundation(data, count: count)
            let read = BatchWire.decode(data, count: count)
            let shown = String(reflecting: String(decoding: data, as: UTF8.self))
            let json = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
            #expect(JSONScanner.isJSON(data) == json || Self.hasTrailingComma(data), "JSON or not: \(shown)")
            if let read {
                let expected = try #require(expected, "read what Foundation refuses: \(shown)")
                #expect(Self.same(read, expected), "\(shown)")
            } else {
                refused += 1
                #expect(expected == nil || Self.hasTrailingComma(data), "refused what Foundation reads: \(shown)")
            }
        }
        #expect(refused > 1000, "the breaks broke enough answers to say something")
    }

    @Test(arguments: [
        #"{"responses":[]} x"#, #"{"responses":[],}"#, #"{"responses":[{"status":200,}]}"#,
        #"{"responses":[{"status":0200}]}"#, #"{"responses":[{"status":200,"body":01}]}"#,
        #"{"responses":[{"status":200,"body":"\x"}]}"#, #"{"responses":[{"status":200,"body":"\ud800"}]}"#,
        #"{"responses":[{"status":200,"body":[1,]}]}"#, #"{"responses":[{"status":200,"body":tru}]}"#,
        #"{"responses":[{"status":200,"body":-}]}"#, #"{"responses":[{"status":200,"body":1.}]}"#,
        #"{"responses":[{"status":200,"body":1e}]}"#, #"{'responses':[]}"#,
    ])
    func textThatIsNotJSONIsRefused(_ text: String) {
        #expect(BatchWire.decode(Data(text.utf8), count: text.contains("status") ? 1 : 0) == nil)
    }

    @Test func invalidUTF8AndRawControlCharactersInAStringAreRefused() {
        let prefix = Array(#"{"responses":[{"status":200,"body":""#.utf8)
        let suffix = Array(#""}]}"#.utf8)
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x0A], [0xFF]] {
            #expect(BatchWire.decode(Data(prefix + bad + suffix), count: 1) == nil, "\(bad)")
        }
        #expect(BatchWire.decode(Data(prefix + [0xE2, 0x82, 0xAC] + suffix), count: 1) != nil, "the euro sign is text")
    }

    @Test func nestingPastTheLimitIsRefusedWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(BatchWire.decode(Data(#"{"responses":[{"status":200,"body":\#(deep)}]}"#.utf8), count: 1) == nil)
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(BatchWire.decode(Data(#"{"responses":[{"status":200,"body":\#(fine)}]}"#.utf8), count: 1) != nil)
    }

    // MARK: - Foundation's reading, as the kernel had it

    static func foundation(_ body: Data, count: Int) -> [HTTPResponse]? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let answers = object["responses"] as? [Any], answers.count == count
        else { return nil }
        var responses: [HTTPResponse] = []
        for answer in answers {
            guard let answer = answer as? [String: Any], let status = answer["status"] as? Int else { return nil }
            var headers: [String: String] = [:]
            for (name, value) in answer["headers"] as? [String: Any] ?? [:] {
                if let value = value as? String { headers[name.lowercased()] = value }
            }
            var bytes = Data()
            if let encoded = answer["body_base64"] as? String {
                guard let decoded = Data(base64Encoded: encoded) else { return nil }
                bytes = decoded
            } else if let json = answer["body"], !(json is NSNull) {
                guard let encoded = try? JSONSerialization.data(withJSONObject: json, options: [.fragmentsAllowed])
                else { return nil }
                bytes = encoded
                headers["content-type"] = headers["content-type"] ?? "application/json"
            }
            responses.append(HTTPResponse(status: status, headers: headers, body: bytes))
        }
        return responses
    }

    /// Equal statuses and headers, and bodies that are the same bytes or the same JSON.
    static func same(_ read: [HTTPResponse], _ expected: [HTTPResponse]) -> Bool {
        guard read.count == expected.count else { return false }
        return zip(read, expected).allSatisfy { read, expected in
            guard read.status == expected.status, read.headers == expected.headers else { return false }
            if read.body == expected.body { return true }
            return canonical(read.body) != nil && canonical(read.body) == canonical(expected.body)
        }
    }

    /// `json` parsed and written again with sorted keys.
    static func canonical(_ json: Data) -> Data? {
        guard let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]) else { return nil }
        return try? JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed, .sortedKeys])
    }

    /// Whether `data` has a comma right before the end of an array or object, outside
    /// strings: Foundation reads that, RFC 8259 does not, and neither does the reader.
    static func hasTrailingComma(_ data: Data) -> Bool {
        var inString = false
        var escaped = false
        var afterComma = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true; afterComma = false
            case UInt8(ascii: ","): afterComma = true
            case UInt8(ascii: "}"), UInt8(ascii: "]"): if afterComma { return true }
            case 0x20, 0x0A, 0x0D, 0x09: break
            default: afterComma = false
            }
        }
        return false
    }

    // MARK: - Answers drawn at random

    static func answer(using random: inout SeededRandom) -> (String, Int) {
        let count = Int.random(in: 0...4, using: &random)
        var answers: [String] = []
        for _ in 0..<count {
            var members = [#""status":\#([200, 201, 204, 404, 409, 412, 500].randomElement(using: &random)!)"#]
            if random.chance(0.8) {
                let headers = (0..<Int.random(in: 0...3, using: &random)).map { index in
                    "\(string(using: &random, key: "H\(index)")):\(random.chance(0.8) ? string(using: &random) : value(depth: 2, using: &random))"
                }
                members.append(#""headers":{\#(headers.joined(separator: ","))}"#)
            }
            if random.chance(0.15) {
                members.append(#""body_base64":"\#(Data((0..<Int.random(in: 0...9, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }).base64EncodedString())""#)
            } else if random.chance(0.85) {
                members.append(#""body":\#(value(depth: 0, using: &random))"#)
            }
            if random.chance(0.2) { members.append(#""extra":\#(value(depth: 1, using: &random))"#) }
            members.shuffle(using: &random)
            answers.append("{" + members.joined(separator: space(using: &random) + "," + space(using: &random)) + "}")
        }
        var top = [#""responses":[\#(answers.joined(separator: ","))]"#]
        if random.chance(0.2) { top.append(#""note":\#(value(depth: 1, using: &random))"#) }
        top.shuffle(using: &random)
        return (space(using: &random) + "{" + top.joined(separator: ",") + "}" + space(using: &random), count)
    }

    static func value(depth: Int, using random: inout SeededRandom) -> String {
        let kinds = depth >= 4 ? 4 : 6
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return string(using: &random)
        case 1: return number(using: &random)
        case 2: return ["true", "false", "null"].randomElement(using: &random)!
        case 3: return string(using: &random)
        case 4:
            let items = (0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth: depth + 1, using: &random) }
            return "[" + items.joined(separator: space(using: &random) + ",") + "]"
        default:
            let members = (0..<Int.random(in: 0...3, using: &random)).map { index in
                string(using: &random, key: "k\(index)") + space(using: &random) + ":" + value(depth: depth + 1, using: &random)
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    /// A JSON string: plain, or with escapes, non-ASCII text and surrogate pairs; a `key`
    /// keeps its text apart from the other keys of its object.
    static func string(using random: inout SeededRandom, key: String? = nil) -> String {
        let pieces = [
            "a", "Z", " ", "é", "猫", "🍿", #"\""#, #"\\"#, #"\/"#, #"\n"#, #"\t"#, #"\u00e9"#, #"\u0041"#, #"\ud83c\udf7f"#,
            ",", "]", "}", ":", "{", "[",
        ]
        let text = (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        return "\"" + (key.map { $0 + "-" } ?? "") + text + "\""
    }

    static func number(using random: inout SeededRandom) -> String {
        [
            "0", "-0", "7", "-12", "3.25", "1e3", "2E-2", "-0.5e+1", "123456789", "1.0",
        ].randomElement(using: &random)!
    }

    static func space(using random: inout SeededRandom) -> String {
        random.chance(0.7) ? "" : [" ", "\n", "\t", "\r\n ", "  "].randomElement(using: &random)!
    }

    /// `bytes` broken once: a byte left out, put in, changed, or the text cut short.
    static func broken(_ bytes: [UInt8], using random: inout SeededRandom) -> Data {
        var bytes = bytes
        let structural = Array(#"{}[]":,\ .e-0tfn"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xFF]
        let place = Int.random(in: 0..<max(1, bytes.count), using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where !bytes.isEmpty: bytes.remove(at: place)
        case 1: bytes.insert(structural.randomElement(using: &random)!, at: min(place, bytes.count))
        case 2 where !bytes.isEmpty: bytes[place] = structural.randomElement(using: &random)!
        default: bytes = Array(bytes.prefix(place))
        }
        return Data(bytes)
    }
}
