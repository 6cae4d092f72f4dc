import Foundation
import Yams

/// Decodes a configuration node into a model and refuses what the model does not know.
///
/// Codable ignores unknown keys silently; here the decoded value is encoded again and
/// every key of the input that did not survive the round trip is reported with its line.
struct StrictDecoder: Sendable {
    /// The file the nodes came from, named in every error.
    public let file: String

    /// A decoder whose errors name `file`.
    public init(file: String) {
        self.file = file
    }

    /// One decoder for every section: each new `YAMLDecoder` works its default encoding
    /// out from the environment, even when given another. It keeps only its options.
    nonisolated(unsafe) private static let decoder = YAMLDecoder(encoding: .utf8)

    /// Decodes `node`, found at `path` in the file, into `type`.
    ///
    /// A key set to an empty or null value is not reported as unknown.
    ///
    /// - Throws: a `configuration` error that names the key path and its line: an unknown key,
    ///   a value of the wrong type, a missing required key, or a value out of those allowed.
    public func decode<T: Codable>(_ type: T.Type, from node: Node, at path: [String]) throws -> T {
        let value: T
        do {
            value = try Self.decoder.decode(T.self, from: node)
        } catch let error as DecodingError {
            throw describe(error, in: node, at: path)
        } catch {
            throw FerryError(
                .configuration,
                "\(file): \(ConfigKeyPath.render(path)) could not be read",
                underlying: error
            )
        }
        if let unknown = Self.firstUnknownKey(in: node, known: try KnownKeys.of(value), path: path) {
            throw FerryError(
                .configuration,
                "\(file)\(line(unknown.node)): unknown key \(ConfigKeyPath.render(unknown.path)); remove it or check its spelling (see docs/configuration.md)"
            )
        }
        return value
    }

    static func firstUnknownKey(in node: Node, known: KnownKeys, path: [String]) -> (path: [String], node: Node)? {
        switch (node, known) {
        case (.mapping(let given), .mapping(let kept)):
            for (key, value) in given {
                let name = key.scalar?.string ?? "?"
                if value.scalar.map({ $0.string == "~" || $0.string == "null" || $0.string.isEmpty }) == true,
                    value.scalar?.style == .plain
                {
                    continue
                }
                guard let match = kept[name] else { return (path + [name], key) }
                if let found = firstUnknownKey(in: value, known: match, path: path + [name]) { return found }
            }
            return nil
        case (.sequence(let given), .sequence(let kept)):
            for (index, (item, keptItem)) in zip(given, kept).enumerated() {
                if let found = firstUnknownKey(in: item, known: keptItem, path: path + ["[\(index)]"]) { return found }
            }
            return nil
        default:
            return nil
        }
    }

    private func describe(_ error: DecodingError, in node: Node, at path: [String]) -> FerryError {
        func place(_ codingPath: [any CodingKey]) -> (String, String) {
            let full = path + codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return (ConfigKeyPath.render(full), line(Self.node(at: codingPath, in: node)))
        }
        switch error {
        case .typeMismatch(let type, let context):
            let (key, at) = place(context.codingPath)
            return FerryError(
                .configuration,
                "\(file)\(at): \(key) should be \(Self.describe(type)); fix the value",
                underlying: error
            )
        case .valueNotFound(let type, let context):
            let (key, at) = place(context.codingPath)
            return FerryError(
                .configuration,
                "\(file)\(at): \(key) needs \(Self.describe(type)); it is empty",
                underlying: error
            )
        case .keyNotFound(let missing, let context):
            let (key, at) = place(context.codingPath + [missing])
            return FerryError(.configuration, "\(file)\(at): \(key) is required; add it", underlying: error)
        case .dataCorrupted(let context):
            let (key, at) = place(context.codingPath)
            let allowed =
                Self.allowedValues[context.codingPath.last?.stringValue ?? ""].map { "; use one of: \($0)" } ?? ""
            let detail =
                context.debugDescription.contains("invalid")
                ? "has a value Ferry does not know" : context.debugDescription
            return FerryError(.configuration, "\(file)\(at): \(key) \(detail)\(allowed)", underlying: error)
        @unknown default:
            return FerryError(
                .configuration,
                "\(file): \(ConfigKeyPath.render(path)) could not be read",
                underlying: error
            )
        }
    }

    private func line(_ node: Node?) -> String {
        node?.mark.map { ":\($0.line)" } ?? ""
    }

    static func node(at codingPath: [any CodingKey], in node: Node) -> Node? {
        var current: Node? = node
        for key in codingPath {
            if let index = key.intValue {
                current = current?.sequence.flatMap { index < $0.count ? $0[index] : nil }
            } else {
                current = current?.mapping?[key.stringValue]
            }
        }
        return current
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type, is Node.Scalar.Type: "text"
        case is Node.Mapping.Type: "a mapping (key: value)"
        case is Node.Sequence.Type: "a list"
        default: "a \(type)"
        }
    }

    static let allowedValues: [String: String] = [
        "delivery": Delivery.allCases.map(\.rawValue).joined(separator: ", "),
        "requires": NetworkRequirement.allCases.map(\.rawValue).joined(separator: ", "),
        "coalesce": CoalesceMode.allCases.map(\.rawValue).joined(separator: ", "),
        "conflict": ConflictPolicy.allCases.map(\.rawValue).joined(separator: ", "),
        "durability": Durability.allCases.map(\.rawValue).joined(separator: ", "),
        "network": NetworkOverride.allCases.map(\.rawValue).joined(separator: ", "),
    ]
}
