import Foundation
import SyncKernel
import Yams

/// Reads `config.yaml` whole: the kernel's configuration, and the `status:` section that
/// the CLI owns (the live view of a running `ferry run`).
///
/// The kernel refuses keys it does not know, so the `status:` section is read here and
/// blanked out of the text the kernel reads: its lines become empty lines, so that the
/// kernel's messages keep the file's line numbers.
enum ConfigurationFile {
    /// Reads and validates the configuration at `path`.
    ///
    /// - Throws: a `configuration` error naming the file, the key and the fix.
    static func load(path: String) throws -> (FerryConfiguration, LiveViewSettings) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            // The kernel's own messages for a missing or unreadable file.
            return (try FerryConfiguration.load(path: path), .off)
        }
        return try parse(text, file: path)
    }

    /// Parses configuration text; `file` names it in messages.
    static func parse(_ text: String, file: String) throws -> (FerryConfiguration, LiveViewSettings) {
        let root = try SafeYAML().parse(text, file: file)
        guard case .mapping(let mapping) = root,
            let index = mapping.firstIndex(where: { $0.key.string == "status" })
        else {
            return (try FerryConfiguration.parse(text, file: file), .off)
        }
        let settings = try LiveViewSettings(mapping[index].value, file: file)
        let others = mapping.filter { $0.key.string != "status" }
        let rest: String
        if mapping.style != .flow, let start = mapping[index].key.mark?.line {
            let next = mapping.index(after: index)
            let end = next < mapping.endIndex ? mapping[next].key.mark?.line : nil
            rest = blanking(text, lines: start..<(end ?? Int.max))
        } else {
            rest = try Yams.serialize(node: .mapping(Node.Mapping(others.map { ($0.key, $0.value) })))
        }
        return (try FerryConfiguration.parse(rest, file: file), settings)
    }

    /// `text` with the lines in `range` (1-based) left empty.
    private static func blanking(_ text: String, lines range: Range<Int>) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .map { range.contains($0.offset + 1) ? "" : String($0.element) }
            .joined(separator: "\n")
    }
}

extension LiveViewSettings {
    /// Reads the `status:` node of `file`: a mapping of `listen` and `token`.
    init(_ node: Node, file: String) throws {
        func place(_ node: Node) -> String { node.mark.map { ":\($0.line)" } ?? "" }
        self.init()
        if let scalar = node.scalar, scalar.string.isEmpty || scalar.string == "~" || scalar.string == "null" {
            return
        }
        guard case .mapping(let mapping) = node else {
            throw FerryError(
                .configuration,
                "\(file)\(place(node)): status must be a mapping, for example status: {listen: 127.0.0.1:8484}"
            )
        }
        for (key, value) in mapping {
            let name = key.string ?? "?"
            guard name == "listen" || name == "token" else {
                throw FerryError(
                    .configuration,
                    "\(file)\(place(key)): unknown key status.\(name); status takes listen and token (see docs/configuration.md)"
                )
            }
            guard let text = value.scalar?.string else {
                throw FerryError(.configuration, "\(file)\(place(value)): status.\(name) should be text; fix the value")
            }
            if text.isEmpty || text == "~" || text == "null", value.scalar?.style == .plain { continue }
            if name == "token" {
                token = text
                continue
            }
            switch ListenAddress.parse(text) {
            case .success(let address): listen = address
            case .failure(let refusal):
                throw FerryError(.configuration, refusal.message(text, file: "\(file)\(place(value))"))
            }
        }
        try validate(file: file)
    }
}
