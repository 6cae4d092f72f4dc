import ArgumentParser
import SyncKernelCLI

/// `ferry --generate-completion-script bash`: the argument parser's script, with what the
/// parser cannot know: after `ferry help`, the help topics (`exit-codes`, `environment`)
/// and the commands, and after `ferry help COMMAND`, its subcommands.
enum CompletionScript {
    /// The script `arguments` ask for, when they ask for bash's; nil otherwise (the
    /// argument parser prints the other shells' as they are).
    static func requested(by arguments: [String]) -> String? {
        let asked =
            arguments == ["--generate-completion-script", "bash"]
            || arguments == ["--generate-completion-script=bash"]
        return asked ? bash(root: Ferry.self) : nil
    }

    /// The bash script, its `help` function replaced by one that offers topics and commands.
    static func bash(root: any ParsableCommand.Type) -> String {
        let script = root.completionScript(for: .bash)
        let function = "_\(root._commandName)_help() {\n"
        guard let start = script.range(of: function),
            let end = script.range(of: "\n}\n", range: start.upperBound..<script.endIndex)
        else { return script }
        return script.replacingCharacters(in: start.lowerBound..<end.upperBound, with: helpFunction(root: root))
    }

    /// `_ferry_help`: the first word after `help` is a topic or a command, the second one of
    /// that command's subcommands.
    static func helpFunction(root: any ParsableCommand.Type) -> String {
        let commands = visibleSubcommands(of: root)
        let first = HelpTopic.allCases.map(\.rawValue) + commands.map { $0._commandName }
        let second = commands.compactMap { command -> String? in
            let names = visibleSubcommands(of: command).map { $0._commandName }
            guard !names.isEmpty else { return nil }
            return "        \(command._commandName)) words='\(names.joined(separator: " "))' ;;\n"
        }
        return """
            _\(root._commandName)_help() {
                local words=''
                case "${#unparsed_words[@]}" in
                1) words='\(first.joined(separator: " "))' ;;
                2)
                    case "${unparsed_words[0]}" in
            \(second.joined())        esac
                    ;;
                esac
                COMPREPLY+=($(compgen -W "${words}" -- "${cur}"))
            }

            """
    }

    private static func visibleSubcommands(of command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        command.configuration.subcommands.filter { $0.configuration.shouldDisplay }
    }
}
