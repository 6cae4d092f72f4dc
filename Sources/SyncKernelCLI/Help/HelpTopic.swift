import ArgumentParser
import SyncKernel

/// Help that is not about one command: `ferry help exit-codes`, `ferry help environment`.
public enum HelpTopic: String, CaseIterable, Sendable {
    case exitCodes = "exit-codes"
    case environment

    /// The topic `arguments` ask for (`help TOPIC`, with or without `--json`); nil for
    /// anything else, which the argument parser handles.
    public init?(arguments: [String]) {
        let words = arguments.filter { $0 != "--json" }
        guard words.count == 2, words[0] == "help", let topic = HelpTopic(rawValue: words[1]) else { return nil }
        self = topic
    }

    /// The topic `arguments` ask for, as `init(arguments:)`; nil for help about commands,
    /// which the argument parser prints.
    ///
    /// - Throws: a `usage` error when `help` is followed by a word that is neither a topic
    ///   nor a command below `root` (`ferry help bogus`), instead of the root's help.
    public static func requested(in arguments: [String], root: any ParsableCommand.Type) throws -> HelpTopic? {
        if let topic = HelpTopic(arguments: arguments) { return topic }
        let words = arguments.filter { !$0.hasPrefix("-") }
        guard words.first == "help", arguments.first == "help" else { return nil }
        var command = root
        for word in words.dropFirst() {
            let found = command.configuration.subcommands.first {
                $0._commandName == word || $0.configuration.aliases.contains(word)
            }
            guard let found else {
                let topics = allCases.map(\.rawValue).joined(separator: ", ")
                throw FerryError(
                    .usage,
                    "no help topic or command \(word); the topics are \(topics), and `ferry --help` lists the commands"
                )
            }
            command = found
        }
        return nil
    }

    /// Prints the topic: a table for people, or `{"exit_codes": [...]}` and
    /// `{"environment": [...]}` for scripts.
    public func print(json: Bool) throws {
        let output = Output(json: json)
        switch (self, json) {
        case (.exitCodes, false): Swift.print(ExitStatus.table, terminator: "")
        case (.environment, false): Swift.print(EnvironmentVariable.table, terminator: "")
        case (.exitCodes, true):
            try output.printJSON(["exit_codes": ExitStatus.allCases.map(ExitCodeView.init)])
        case (.environment, true): try output.printJSON(["environment": EnvironmentVariable.all])
        }
    }

    /// One line of the discussion of `ferry --help`.
    public static let summary = "`ferry help exit-codes` and `ferry help environment` print those tables."
}

/// An exit status as `ferry help exit-codes --json` lists it.
private struct ExitCodeView: Encodable {
    let code: Int32
    let name: String
    let meaning: String

    init(_ status: ExitStatus) {
        code = status.rawValue
        name = status.name
        meaning = status.meaning
    }
}
