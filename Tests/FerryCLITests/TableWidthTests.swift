import Foundation
import SyncKernelCLI
import Testing

/// Tables line up on screen whatever the script: wide characters and emoji take two
/// columns, combining marks none.
@Suite("table padding by display width")
struct TableWidthTests {
    @Test(arguments: [
        ("Heat", 4), ("千と千尋の神隠し", 16), ("한국", 4), ("ｆｕｌｌ", 8), ("🎬", 2), ("❤️", 2),
        ("👨‍👩‍👧", 2), ("🇯🇵", 2), ("Cafe\u{301}", 4), ("e\u{301}\u{302}", 1), ("\u{200D}", 0), ("", 0),
    ])
    func displayWidthCountsColumnsOnScreen(text: String, columns: Int) {
        #expect(text.displayWidth == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func paddingFillsToTheWidthAndNeverCuts() {
        #expect("千".padded(toWidth: 4) == "千  ")
        #expect("longer".padded(toWidth: 2) == "longer")
    }

    @Test func columnsAfterWideTitlesStartAtTheSameScreenColumn() {
        let text = Self.plain(
            Output.render(
                ["ID", "TITLE", "YEAR"],
                [["1", "千と千尋の神隠し", "2001"], ["2", "Heat", "1995"], ["3", "🎬 Amélie", "2001"], ["4", "Cafe\u{301}", "2020"]]
            )
        )
        let lines = text.split(separator: "\n").map(String.init)
        let lastCells = ["YEAR", "2001", "1995", "2001", "2020"]
        #expect(lines.count == lastCells.count && zip(lines, lastCells).allSatisfy { $0.hasSuffix($1) }, "\(text)")
        let starts = zip(lines, lastCells).map { $0.displayWidth - $1.displayWidth }
        #expect(Set(starts).count == 1, "the last column starts at screen columns \(starts)\n\(text)")
        #expect(lines[1] == "1   千と千尋の神隠し  2001")
    }

    @Test func aRowWiderThanTheHeaderDoesNotCrash() {
        #expect(Self.plain(Output.render(["A"], [["1", "extra"]])).contains("1  extra"))
    }

    /// The text without bold escapes (the tests may run on a terminal).
    static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
    }
}
