import Foundation
import Yams

/// Reads YAML without the classic hazards: a size cap, no anchors or aliases (so no alias
/// expansion blow-up), a node and depth budget over the tree, `${ENV}` interpolation in
/// scalar values only, and errors that give line and column but never quote the file.
public struct SafeYAML: Sendable {
    /// The largest text parsed, in UTF-8 bytes (1 MiB).
    public var maxBytes: Int = 1 << 20
    /// The most values the tree may hold once composed.
    public var maxNodes: Int = 100_000
    /// The deepest nesting allowed.
    public var maxDepth: Int = 64
    /// Looks up environment variables for `${NAME}` and `${NAME:-default}`.
    public var environment: @Sendable (String) -> String? = { ProcessEnvironment.value($0) }

    /// A reader with the default limits that reads the process's environment.
    public init() {}

    /// Parses `text` (from `file`, for messages) into a node tree with variables substituted.
    ///
    /// `${NAME:-default}` uses `default` when `NAME` is unset or empty.
    ///
    /// - Throws: a `configuration` error when the text is over a limit, is not valid YAML,
    ///   uses an anchor or an alias, or names an unset variable without a default.
    public func parse(_ text: String, file: String) throws -> Node {
        guard text.utf8.count <= maxBytes else {
            throw FerryError(
                .configuration,
                "\(file) is \(text.utf8.count) bytes; a configuration file may be at most \(maxBytes) bytes"
            )
        }
        // The parser holds the anchors, which the nodes reference weakly: it must outlive
        // the walk below, which refuses anchored nodes (and so every alias).
        let parser: Parser
        let composed: Node?
        do {
            // UTF-8 named: the default is worked out from the environment on every parse.
            parser = try Parser(yaml: text, resolver: .basic, encoding: .utf8)
            composed = try parser.singleRoot()
        } catch let error as YamlError {
            throw FerryError(
                .configuration,
                "\(file): \(Self.location(of: error)) is not valid YAML; check indentation and quoting there"
            )
        } catch {
            throw FerryError(.configuration, "\(file) is not valid YAML")
        }
        guard let root = composed else { return Self.mapping([]) }
        var budget = maxNodes
        return try withExtendedLifetime(parser) {
            try rebuild(root, path: [], depth: 0, budget: &budget, file: file)
        }
    }

    private func rebuild(_ node: Node, path: [String], depth: Int, budget: inout Int, file: String) throws -> Node {
        budget -= 1
        guard budget >= 0, depth <= maxDepth else {
            throw FerryError(
                .configuration,
                "\(file) is too large or too deeply nested once aliases are expanded (at \(ConfigKeyPath.render(path))); a configuration needs at most \(maxNodes) values and \(maxDepth) levels"
            )
        }
        if let anchor = node.anchor {
            // The parser resolves an alias to its anchored node, so every alias arrives here
            // as the node that carries the anchor: refusing anchors refuses every alias.
            throw FerryError(
                .configuration,
                "\(file)\(node.mark.map { ":\($0.line)" } ?? ""): \(ConfigKeyPath.render(path)) uses the YAML anchor &\(anchor.rawValue); anchors and aliases (*\(anchor.rawValue)) are not supported in a configuration: write the value out where it is used"
            )
        }
        switch node {
        case .scalar(var scalar):
            if scalar.string.contains("${") {
                scalar.string = try interpolate(scalar.string, path: path, file: file, line: node.mark?.line)
            }
            if scalar.style == .plain, Self.booleans.contains(scalar.string) {
                scalar.tag = Tag(.bool, .basic, .default)
            }
            return .scalar(scalar)
        case .mapping(let mapping):
            var pairs: [(Node, Node)] = []
            for (key, value) in mapping {
                let name = key.scalar?.string ?? "?"
                pairs.append(
                    (key, try rebuild(value, path: path + [name], depth: depth + 1, budget: &budget, file: file))
                )
            }
            return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
        case .sequence(let sequence):
            var items: [Node] = []
            for (index, item) in sequence.enumerated() {
                items.append(
                    try rebuild(item, path: path + ["[\(index)]"], depth: depth + 1, budget: &budget, file: file)
                )
            }
            return .sequence(Node.Sequence(items, sequence.tag, sequence.style, sequence.mark))
        case .alias:
            throw FerryError(
                .configuration,
                "\(file): \(ConfigKeyPath.render(path)) uses a YAML alias; write the value out instead"
            )
        }
    }

    /// A mapping node of `pairs`. Tags made with Yams's defaults would build its default
    /// resolver (see `booleans`), so nodes made here say theirs.
    static func mapping(_ pairs: [(Node, Node)]) -> Node {
        .mapping(Node.Mapping(pairs, Tag(.implicit, .basic, .default)))
    }

    /// The plain words YAML 1.1 reads as true or false. Tags are resolved here rather than
    /// by Yams's default resolver, whose regular expressions cost a command 2 ms of
    /// start-up (ICU's set-up): booleans are the only values whose decoding reads the
    /// tag; numbers and nulls are read from their text.
    static let booleans: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF",
    ]

    private func interpolate(_ text: String, path: [String], file: String, line: Int?) throws -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                throw FerryError(
                    .configuration,
                    "\(file)\(line.map { ":\($0)" } ?? ""): \(ConfigKeyPath.render(path)) has an unclosed ${; write ${NAME} or ${NAME:-default}"
                )
            }
            let expression = rest[start.upperBound..<end]
            let parts = expression.split(separator: ":-", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            if let value = environment(name), !(parts.count == 2 && value.isEmpty) {
                result += value
            } else if parts.count == 2 {
                result += parts[1]
            } else {
                throw FerryError(
                    .configuration,
                    "\(file)\(line.map { ":\($0)" } ?? ""): \(ConfigKeyPath.render(path)) uses ${\(name)}, which is not set; export \(name) or write ${\(name):-default}"
                )
            }
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    static func location(of error: YamlError) -> String {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return "line \(mark.line), column \(mark.column)"
        default:
            return "the file"
        }
    }
}

/// Renders a key path the way a person would write it: `plugins.recipes.retry.max_attempts`.
enum ConfigKeyPath {
    /// `path` joined with dots, indices as `[n]`; "the top level" when it is empty.
    public static func render(_ path: [String]) -> String {
        path.isEmpty ? "the top level" : path.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
    }

    /// A coding path rendered the same way, integer keys as indices.
    public static func render(_ path: [any CodingKey]) -> String {
        render(path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue })
    }
}
