import Foundation
import Testing

@testable import SyncKernel
import SyncKernelTesting

/// `SortedJSON` writes what Foundation's `JSONSerialization` writes with `.sortedKeys`,
/// byte for byte: entities already stored were written by Foundation, and a pull that
/// wrote the same entity differently would take it for a change.
@Suite("Sorted JSON: Foundation's bytes")
struct SortedJSONTests {
    func foundation(_ value: Any, escapingSlashes: Bool = true) throws -> String {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed]
        if !escapingSlashes { options.insert(.withoutEscapingSlashes) }
        return String(decoding: try JSONSerialization.data(withJSONObject: value, options: options), as: UTF8.self)
    }

    func ours(_ value: Any, escapingSlashes: Bool = true) throws -> String {
        String(decoding: try SortedJSON.data(value, escapingSlashes: escapingSlashes), as: UTF8.self)
    }

    func parsed(_ json: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
    }

    @Test(arguments: [
        #"{"id":"m_1","title":"The Grand Budapest Hotel","year":2014,"rating":7.5,"watched":false,"poster":null}"#,
        #"{"b":1,"B":2,"a10":3,"a9":4,"_x":5,"Z":6,"é":7,"e":8,"a":9,"A":10,"":11,"ab":12,"aB":13,"Ab":14}"#,
        #"[0.1,7.5,1.0,1e21,1e-7,123456789012345678,-0.0,3.141592653589793,100,-5,2.5e10,1.7976931348623157e308,5e-324]"#,
        #"[12345678901234567890,0.30000000000000004,1e16,123456789.125,-9223372036854775808,true,false,null]"#,
        #"["a/b","\u0001\u000f\u0010\u001f\u007f\u2028é\"\\\n\t\r\b\f","","emoji 🎬","\ud83c\udfac"]"#,
        #"{"nested":{"list":[{"z":1,"y":[true,{"x":null}]}],"empty":{},"none":[]},"path":"/p/q.jpg"}"#,
        #""just a string/with a slash""#, "42", "true", "null", "-0.5",
    ])
    func writesWhatFoundationWritesForParsedJSON(json: String) throws {
        let value = try parsed(json)
        #expect(try ours(value) == foundation(value))
        #expect(try ours(value, escapingSlashes: false) == foundation(value, escapingSlashes: false))
    }

    @Test func writesWhatFoundationWritesForSwiftValues() throws {
        let values: [Any] = [
            ["title": "Heat", "year": 1995, "rating": 8.25, "seen": true, "whole": 3.0] as [String: Any],
            [Int64(7), Int32(-3), UInt8(200), Float(0.5), Double.pi, false, "x"] as [Any],
            ["list": [1, 2, 3], "names": ["a": "b"]] as [String: Any],
            NSNull(), NSNumber(value: 12.75), NSNumber(value: UInt64.max), Decimal(string: "1.10")!,
        ]
        for value in values {
            #expect(try ours(value) == foundation(value), "\(value)")
        }
    }

    @Test func refusesWhatFoundationRefuses() {
        for value: Any in [Double.nan, ["x": Double.infinity] as [String: Any], [1: "a"] as [Int: String], Date()] {
            #expect(throws: (any Error).self, "\(value)") { try SortedJSON.data(value) }
        }
    }

    /// A thousand random documents of the shapes a server sends, from a fixed seed.
    @Test func writesWhatFoundationWritesForRandomDocuments() throws {
        var random = SeededRandom(seed: 2026)
        for _ in 0..<1000 {
            let json = randomJSON(&random, depth: 0)
            let value = try parsed(json)
            #expect(try ours(value) == foundation(value), "\(json)")
        }
    }

    @Test func keysAreOrderedAsFoundationOrdersThemWhateverSetCameFirst() throws {
        let first = try parsed(#"{"a2":1,"a10":2,"A1":3}"#)
        let second = try parsed(#"{"A1":1,"a10":2,"a2":3}"#)
        #expect(try ours(first) == #"{"A1":3,"a2":1,"a10":2}"#)
        #expect(try ours(second) == #"{"A1":1,"a2":3,"a10":2}"#)
    }

    /// Keys of lower-case letters and underscores are sorted as bytes, without Foundation's
    /// comparison: the two agree on every pair of strings of up to three such characters.
    @Test func plainKeysOrderAsTheirBytes() {
        let alphabet = ["a", "b", "m", "y", "z", "_"]
        var strings = alphabet
        for _ in 0..<2 { strings += strings.flatMap { prefix in alphabet.map { prefix + $0 } } }
        strings = Array(Set(strings))
        #expect(strings.allSatisfy(SortedKeyOrder.isPlain))
        var disagreements: [String] = []
        for a in strings {
            for b in strings where SortedKeyOrder.precedes(a, b) != (a < b) {
                disagreements.append("\(a) \(b)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
        #expect(!SortedKeyOrder.isPlain("a10") && !SortedKeyOrder.isPlain("Title") && !SortedKeyOrder.isPlain(""))
    }

    private func randomJSON(_ random: inout SeededRandom, depth: Int) -> String {
        let keys = ["id", "title", "Title", "_rev", "a2", "a10", "year", "é", "rating", "x/y", "tags", "z"]
        let strings = ["", "plain", "with \"quotes\"", "back\\slash", "a/b", "tab\there", "ünï", "🎬", "\u{1}\u{1f}"]
        let numbers = ["0", "-1", "42", "7.5", "1e3", "2.5E-3", "9007199254740993", "-0.25", "1.0"]
        switch Int.random(in: 0..<(depth > 2 ? 5 : 7), using: &random) {
        case 0: return "\"\(escaped(strings[Int.random(in: 0..<strings.count, using: &random)]))\""
        case 1: return numbers[Int.random(in: 0..<numbers.count, using: &random)]
        case 2: return ["true", "false"][Int.random(in: 0..<2, using: &random)]
        case 3: return "null"
        case 4: return "\"\(escaped(keys[Int.random(in: 0..<keys.count, using: &random)]))\""
        case 5:
            let count = Int.random(in: 0..<4, using: &random)
            return "[" + (0..<count).map { _ in randomJSON(&random, depth: depth + 1) }.joined(separator: ",") + "]"
        default:
            let count = Int.random(in: 0..<7, using: &random)
            let chosen = Set((0..<count).map { _ in keys[Int.random(in: 0..<keys.count, using: &random)] })
            return "{" + chosen.sorted().map { "\"\(escaped($0))\":\(randomJSON(&random, depth: depth + 1))" }.joined(separator: ",") + "}"
        }
    }

    private func escaped(_ string: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: string, options: [.fragmentsAllowed]), as: UTF8.self)
            .dropFirst().dropLast().description
    }
}
