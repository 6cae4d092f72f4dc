import ArgumentParser
import Foundation
import Testing

@testable import FerryCLI

/// Every command's help ends with real invocations of that command, so a new command
/// without examples fails here.
@Suite("ferry help")
struct HelpTests {
    /// A command without subcommands and the words that reach it (`["queue", "list"]`).
    struct Leaf {
        let path: [String]
        let command: any ParsableCommand.Type
        var invocation: String { (["ferry"] + path).joined(separator: " ") }
    }

    /// Every leaf below `command`, found through `configuration.subcommands` (grouped ones too).
    static func leaves(of command: any ParsableCommand.Type, path: [String] = []) -> [Leaf] {
        let subcommands = command.configuration.subcommands
        if subcommands.isEmpty { return [Leaf(path: path, command: command)] }
        return subcommands.flatMap { leaves(of: $0, path: path + [$0._commandName]) }
    }

    @Test func theWalkReachesTheShippedCommands() {
        let names = Set(Self.leaves(of: Ferry.self).map { $0.path.joined(separator: " ") })
        for expected in ["run", "queue list", "conflicts resolve", "network", "serve", "movies list", "recipes add", "family vote", "audio play", "auth login"] {
            #expect(names.contains(expected), "no leaf command \(expected) in \(names.sorted())")
        }
    }

    @Test(arguments: leaves(of: Ferry.self).map(\.invocation))
    func everyCommandShowsExamplesOfItself(_ invocation: String) throws {
        let leaf = try #require(Self.leaves(of: Ferry.self).first { $0.invocation == invocation })
        let help = Ferry.helpMessage(for: leaf.command, columns: 500)
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard let start = lines.firstIndex(of: "Examples:") else {
            Issue.record("\(leaf.invocation) --help has no Examples section; add one with Examples.discussion:\n\(help)")
            return
        }
        let examples = lines[(start + 1)...].prefix { !$0.isEmpty }
        #expect(!examples.isEmpty, "\(leaf.invocation) --help has an empty Examples section")
        #expect(
            examples.contains { $0.hasPrefix(leaf.invocation + " ") || $0 == leaf.invocation },
            "no example of \(leaf.invocation) in:\n\(examples.joined(separator: "\n"))"
        )
        #expect(examples.allSatisfy { $0.hasPrefix("ferry ") }, "an example that is not a ferry command:\n\(examples.joined(separator: "\n"))")
    }

    @Test func audioDownloadOffersOnlyWhatItDownloads() throws {
        let leaf = try #require(Self.leaves(of: Ferry.self).first { $0.invocation == "ferry audio download" })
        let help = Ferry.helpMessage(for: leaf.command, columns: 500)
        #expect(help.contains("values: album, collection") && !help.contains("values: album, collection, track"), "\(help)")
    }

    /// Help printed on an 80-column terminal (or piped) keeps each example on one line, so
    /// it can be copied whole.
    @Test(arguments: leaves(of: Ferry.self).map(\.invocation))
    func everyExampleFitsOnALineOf80Columns(_ invocation: String) throws {
        let leaf = try #require(Self.leaves(of: Ferry.self).first { $0.invocation == invocation })
        let lines = Ferry.helpMessage(for: leaf.command, columns: 80).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "Examples:" })
        for line in lines[(start + 1)...].prefix(while: { !$0.isEmpty }) {
            #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("ferry "), "\(invocation): an example wrapped at \(line)")
        }
    }

    @Test func aDiscussionIsWrappedByTheTerminalNotInTheSource() throws {
        let leaf = try #require(Self.leaves(of: Ferry.self).first { $0.invocation == "ferry movies add" })
        let help = Ferry.helpMessage(for: leaf.command, columns: 500)
        #expect(help.contains("stores it at once as a pending movie; when online"), "\(help)")
    }
}
