import Foundation
import Testing

/// docs/plugins.md shows the guide's plugin and its test; they must be the code that runs.
@Suite("The plugin guide shows the code it runs")
struct GuideTests {
    @Test func theGuideShowsThisPluginAsItIs() throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let guide = try String(
            contentsOf: here.appendingPathComponent("../../docs/plugins.md").standardizedFileURL,
            encoding: .utf8
        )
        for file in ["FavouritesPlugin.swift", "FavouritesTests.swift"] {
            let code = try String(contentsOf: here.appendingPathComponent(file), encoding: .utf8)
            #expect(guide.contains(code), "docs/plugins.md must show \(file) as it is")
        }
    }
}
