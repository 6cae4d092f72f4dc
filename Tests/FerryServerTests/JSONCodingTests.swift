import Foundation
import Testing

@testable import FerryServer

/// Stored idempotency fingerprints hash a body's encoding, and clients compare answers byte
/// for byte: the server's own JSON writer must give exactly Foundation's bytes.
@Suite("JSON is written exactly as Foundation writes it")
struct JSONCodingTests {
    /// Foundation's encoding, the reference.
    static func foundation(_ value: JSON) -> Data {
        (try? JSON.encoder.encode(value)) ?? Data("null".utf8)
    }

    static let awkwardStrings = [
        "", "plain", "quote \" and backslash \\", "slash / stays", "tab\tnewline\nreturn\rback\u{8}feed\u{C}",
        "\u{0}\u{1}\u{1F}\u{7F}", "é ß 東京 🎬", "\u{2028}\u{2029}", "emoji 👩‍👩‍👧 and combining e\u{301}",
    ]

    @Test func scalarsAndStringsMatchFoundation() {
        var values: [JSON] = [.null, true, false, 0, -1, .int(Int.max), .int(Int.min)]
        values += [0.1, 1.0, -0.0, 100.0, 1e16, 1e21, 1e-7, 3.14159, 2.5e15, .double(Double.greatestFiniteMagnitude)]
        values += Self.awkwardStrings.map(JSON.string)
        for value in values {
            #expect(value.encoded() == Self.foundation(value), "\(value)")
        }
    }

    @Test func keysAreSortedByTheirUTF8Bytes() {
        var object: [String: JSON] = [:]
        for (index, key) in (Self.awkwardStrings + ["a", "B", "Z", "a10", "a9", "é", "e\u{301}", "_"]).enumerated() {
            object[key] = .int(index)
        }
        let value = JSON.object(object)
        #expect(value.encoded() == Self.foundation(value))
    }

    @Test func randomNestedValuesMatchFoundation() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let value = Self.random(depth: 0, using: &generator)
            #expect(value.encoded() == Self.foundation(value), "\(value)")
        }
    }

    @Test func whatOnlyFoundationEncodesIsLeftToIt() {
        var deep = JSON.int(1)
        for _ in 0..<600 { deep = .array([deep]) }
        #expect(deep.encoded() == Self.foundation(deep))
        #expect(JSON.double(.nan).encoded() == Data("null".utf8))
        #expect(JSON.array([.double(.infinity)]).encoded() == Self.foundation(.array([.double(.infinity)])))
    }

    /// Foundation's reading of `text`, the reference.
    static func foundation(parsing text: String) -> JSON? {
        try? JSON.decoder.decode(JSON.self, from: Data(text.utf8))
    }

    @Test func documentsReadAsFoundationReadsThem() {
        let documents = [
            #"{"title":"Recipe 1","tags":["a","b"],"n":-42,"ok":true,"none":null,"nested":{"x":[[],{}]}}"#,
            " \t\r\n{ \"a\" : [ 1 , 2 ] } \n", #""just a string""#, "0", "-0", "123456789012345678",
            "1234567890123456789", "99999999999999999999", "1.5", "1e3", "-1E-2", "1.0", "01", "-", "+1", "",
            #"{"a":1,"a":2}"#, #"{"é":1,"e\#u{301}":2}"#, #"["\"\\\/\b\f\n\r\t"]"#, #"["\u00e9\ud83c\udfac"]"#,
            #"["\ud800"]"#, #"["\x"]"#, "[\"tab\there\"]", "[\"del\u{7F}\"]", #"["é ß 東京 🎬"]"#, "[1,]", #"{"a":1,}"#,
            "[1 2]", "[1", #"{"a":1"#, #"{"a" 1}"#, "{1:2}", "tru", "nul", "true false", "[", "{", #"{"a":"#, #"""#, "\u{FEFF}{}", "[[[[[]]]]]",
        ]
        for document in documents {
            #expect(JSON.decode(Data(document.utf8)) == Self.foundation(parsing: document), "\(document)")
        }
        #expect(JSON.decode(Data([0x22, 0xC3, 0x28, 0x22])) == nil)
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(JSON.decode(Data(deep.utf8)) == Self.foundation(parsing: deep))
    }

    @Test func randomValuesReadBackAsFoundationReadsThem() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let text = String(decoding: Self.foundation(Self.random(depth: 0, using: &generator)), as: UTF8.self)
            #expect(JSON.decode(Data(text.utf8)) == Self.foundation(parsing: text), "\(text)")
        }
    }

    static func random(depth: Int, using generator: inout SystemRandomNumberGenerator) -> JSON {
        switch Int.random(in: depth > 3 ? 0...4 : 0...6, using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .int(Int.random(in: -1_000_000...1_000_000, using: &generator))
        case 3: return .double(Double.random(in: -1e6...1e6, using: &generator))
        case 4: return .string(awkwardStrings.randomElement(using: &generator)!)
        case 5:
            return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in random(depth: depth + 1, using: &generator) })
        default:
            var object: [String: JSON] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                let key = awkwardStrings.randomElement(using: &generator)! + String(Int.random(in: 0...20, using: &generator))
                object[key] = random(depth: depth + 1, using: &generator)
            }
            return .object(object)
        }
    }
}
