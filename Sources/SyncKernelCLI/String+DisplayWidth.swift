extension String {
    /// The columns the text takes on a terminal: East Asian wide and fullwidth characters
    /// and emoji take two, combining marks and other zero-width characters none, the rest one.
    ///
    /// ```swift
    /// "Heat".displayWidth       // 4
    /// "千と千尋".displayWidth     // 8
    /// "Cafe\u{301}".displayWidth // 4 (é as e and a combining accent)
    /// ```
    public var displayWidth: Int {
        reduce(0) { $0 + $1.displayWidth }
    }

    /// The text followed by spaces up to `width` columns; text already as wide or wider
    /// is returned whole, never cut.
    public func padded(toWidth width: Int) -> String {
        self + String(repeating: " ", count: Swift.max(0, width - displayWidth))
    }
}

extension Character {
    /// The columns this character (a grapheme cluster) takes on a terminal: 0, 1 or 2.
    var displayWidth: Int {
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: \.properties.isEmojiPresentation) { return 2 }
        // A text-style emoji (❤) turned into an emoji by VARIATION SELECTOR-16.
        if first.properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        if Self.isZeroWidth(first) { return 0 }
        return Self.isWide(first.value) ? 2 : 1
    }

    /// Combining marks, format characters (a zero-width joiner) and controls: nothing on screen.
    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: true
        default: false
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode's EastAsianWidth.txt.
    private static func isWide(_ value: UInt32) -> Bool {
        wideRanges.contains { $0.contains(value) }
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x16FE0...0x18CFF,  // Tangut and ideographic symbols
        0x1B000...0x1B2FF,  // Kana supplement and extensions, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK extensions B to F
        0x30000...0x3FFFD,  // CJK extension G and beyond
    ]
}
