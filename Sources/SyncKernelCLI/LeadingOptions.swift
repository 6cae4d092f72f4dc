import ArgumentParser

/// The options every command takes (`--json`, `--config PATH`, `--verbose`,
/// `--log-format FORMAT`), accepted
/// before the subcommand too: `ferry --json status` is `ferry status --json`.
public enum LeadingOptions {
    /// `arguments` (without the executable) with the global options given before the
    /// subcommand moved to just after it, where the subcommand parses them; the rest keep
    /// their order. Given before no subcommand at all, they are dropped.
    ///
    /// ```swift
    /// LeadingOptions.hoisted(["--json", "queue", "list", "--state", "dead"], root: Ferry.self)
    /// // ["queue", "list", "--json", "--state", "dead"]
    /// ```
    public static func hoisted(_ arguments: [String], root: any ParsableCommand.Type) -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if first == "--json" || first == "--verbose" || first.hasPrefix("--config=")
                || first.hasPrefix("--log-format=")
            {
                leading.append(first)
                rest.removeFirst()
            } else if first == "--config" || first == "--log-format", rest.count >= 2 {
                leading += rest.prefix(2)
                rest.removeFirst(2)
            } else {
                break
            }
        }
        guard !leading.isEmpty else { return arguments }
        var command = root
        var path: [String] = []
        while let name = rest.first, let subcommand = subcommand(of: command, named: name) {
            path.append(name)
            rest.removeFirst()
            command = subcommand
        }
        // Without a subcommand they have nothing to apply to: the parser then says what is
        // missing (or prints help) rather than refusing an option.
        return path.isEmpty ? Array(rest) : path + leading + rest
    }

    /// Whether `arguments` ask for JSON: `--json` anywhere before a `--` terminator.
    public static func asksForJSON(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--json")
    }

    private static func subcommand(
        of command: any ParsableCommand.Type,
        named name: String
    ) -> (any ParsableCommand.Type)? {
        command.configuration.subcommands.first { $0._commandName == name || $0.configuration.aliases.contains(name) }
    }
}
