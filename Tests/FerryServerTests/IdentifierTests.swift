import Testing

@testable import FerryServer

/// Client-chosen ids: letters, digits, `.`, `_` and `-`, 1 to 128 of them, starting with a
/// letter or digit, never `..`.
@Suite struct IdentifierTests {
    @Test(arguments: [
        "a", "Z", "7", "a.b", "a-b_c.d", "0.1.2", "recipe-42", "a.", "a-", "a_", "a._.b",
        String(repeating: "x", count: 128),
    ])
    func accepts(_ id: String) {
        #expect(Identifier.isValid(id))
    }

    @Test(arguments: [
        "", ".a", "-a", "_a", "a..b", "a...", "a/b", "a\\b", "a b", "a\u{0}", "é", "aé", "a\u{301}",
        String(repeating: "x", count: 129), "ａ",
    ])
    func refuses(_ id: String) {
        #expect(!Identifier.isValid(id))
    }

    @Test func aRefusalIsA400NamingTheCode() {
        #expect(throws: APIError.self) { try Identifier.validated("a..b", code: "invalid_recipe_id") }
    }
}
