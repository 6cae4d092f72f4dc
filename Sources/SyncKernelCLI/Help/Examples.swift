/// The discussion of a command's help: what it says about the command, then an Examples
/// section of real invocations, one a line, so every command shows how it is called the
/// same way.
///
/// ```swift
/// static let configuration = CommandConfiguration(
///     commandName: "show",
///     abstract: "Show one movie.",
///     discussion: Examples.discussion(examples: ["ferry movies show m_demo_heat"])
/// )
/// ```
public enum Examples {
    /// `text` (left out when empty), a blank line, and `Examples:` with each of `examples`
    /// indented below it.
    public static func discussion(_ text: String = "", examples: [String]) -> String {
        let section = (["Examples:"] + examples.map { "  " + $0 }).joined(separator: "\n")
        return text.isEmpty ? section : text + "\n\n" + section
    }
}
