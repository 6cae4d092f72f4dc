import Foundation
import Yams

/// A loaded and validated `config.yaml`.
public struct FerryConfiguration: Sendable {
    /// The file it came from, for messages.
    public let file: String
    /// The kernel's settings: every top-level key except `plugins:` and `domains:`.
    public var kernel: KernelSettings
    /// Each plugin's section: the kernel's keys, and the rest for the plugin to decode.
    public var plugins: [String: PluginSection]
    /// Domains declared in YAML alone (`domains:`), by name.
    public var domains: [String: DeclaredDomainSettings] = [:]
    /// Whether the file sets nothing (it is empty, or holds only comments): every default
    /// applies and no plugin is enabled, which is rarely what a person meant.
    public internal(set) var isEmpty = false

    /// One plugin's section of `config.yaml`.
    public struct PluginSection: Sendable {
        /// The keys of the section that the kernel reads (`enabled`, `remote`, `pull_every`,
        /// `retry`, `operations`); every other key is the plugin's.
        public var kernel: PluginKernelSettings
        /// The plugin's own keys, decoded by `decodeSettings`.
        let settings: FrozenNode
        let path: [String]
    }

    /// A parsed YAML node that nobody mutates after parsing, shared across tasks.
    struct FrozenNode: @unchecked Sendable {
        let node: Node
    }

    /// The folder that relative paths in the file are relative to.
    public var baseDirectory: URL {
        URL(fileURLWithPath: file).deletingLastPathComponent()
    }

    /// The data folder, absolute.
    public var dataDirectory: URL {
        let dir = kernel.dataDir
        return dir.hasPrefix("/") ? URL(fileURLWithPath: dir) : baseDirectory.appendingPathComponent(dir)
    }

    /// Reads and validates the configuration at `path`.
    ///
    /// - Throws: a `configuration` error when the file is missing, unreadable, not valid
    ///   YAML, or holds an unknown key or a value out of range; the message names the
    ///   file, the key path and the line.
    public static func load(path: String, yaml: SafeYAML = SafeYAML()) throws -> FerryConfiguration {
        guard FileManager.default.fileExists(atPath: path) else {
            throw FerryError(
                .configuration,
                "no configuration at \(path); run from the folder with config.yaml, pass --config PATH or set FERRY_CONFIG"
            )
        }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw FerryError(
                .configuration,
                "cannot read \(path): it is not a readable UTF-8 text file",
                underlying: error
            )
        }
        return try parse(text, file: path, yaml: yaml)
    }

    /// Parses configuration text; `file` names it in messages.
    public static func parse(_ text: String, file: String, yaml: SafeYAML = SafeYAML()) throws -> FerryConfiguration {
        let root = try yaml.parse(text, file: file)
        guard case .mapping(let mapping) = root else {
            throw FerryError(
                .configuration,
                "\(file): the top level must be a mapping of keys (data_dir:, server:, plugins:)"
            )
        }
        let decoder = StrictDecoder(file: file)
        var kernelPairs: [(Node, Node)] = []
        var pluginsNode: Node?
        var domainsNode: Node?
        for (key, value) in mapping {
            switch key.scalar?.string {
            case "plugins": pluginsNode = value
            case "domains": domainsNode = value
            default: kernelPairs.append((key, value))
            }
        }
        let kernel = try decoder.decode(KernelSettings.self, from: SafeYAML.mapping(kernelPairs), at: [])
        try kernel.validate(file: file)
        var plugins: [String: PluginSection] = [:]
        if let pluginsNode, pluginsNode.scalar?.string.isEmpty != true {
            guard case .mapping(let sections) = pluginsNode else {
                throw FerryError(
                    .configuration,
                    "\(file)\(pluginsNode.mark.map { ":\($0.line)" } ?? ""): plugins must be a mapping of plugin names to their settings"
                )
            }
            for (key, value) in sections {
                let name = key.scalar?.string ?? "?"
                plugins[name] = try section(value, name: name, decoder: decoder)
            }
        }
        var configuration = FerryConfiguration(file: file, kernel: kernel, plugins: plugins)
        configuration.isEmpty = mapping.isEmpty
        if let domainsNode, domainsNode.scalar?.string.isEmpty != true {
            configuration.domains = try decoder.decode(
                [String: DeclaredDomainSettings].self,
                from: domainsNode,
                at: ["domains"]
            )
            for name in configuration.domains.keys.sorted() where plugins[name] != nil {
                throw FerryError(
                    .configuration,
                    "\(file): domains.\(name) has the name of a plugin section; give the domain another name"
                )
            }
            for (name, domain) in configuration.domains {
                try domain.validateRetry(at: "domains.\(name)", file: file)
                try KernelSettings.validateRemote(
                    domain.remote,
                    at: "domains.\(name).remote",
                    line: keyLine(["domains", name, "remote"], in: root),
                    file: file
                )
                configuration.domains[name] = try domain.completed(name: name, file: file)
            }
        }
        return configuration
    }

    private static func section(_ node: Node, name: String, decoder: StrictDecoder) throws -> PluginSection {
        let path = ["plugins", name]
        var kernelPairs: [(Node, Node)] = []
        var pluginPairs: [(Node, Node)] = []
        if case .mapping(let mapping) = node {
            for (key, value) in mapping {
                if PluginKernelSettings.keys.contains(key.scalar?.string ?? "") {
                    kernelPairs.append((key, value))
                } else {
                    pluginPairs.append((key, value))
                }
            }
        } else if node.scalar.map({ !$0.string.isEmpty && $0.string != "~" }) == true {
            throw FerryError(
                .configuration,
                "\(decoder.file)\(node.mark.map { ":\($0.line)" } ?? ""): plugins.\(name) must be a mapping (enabled: true, ...)"
            )
        }
        let kernel = try decoder.decode(PluginKernelSettings.self, from: SafeYAML.mapping(kernelPairs), at: path)
        try kernel.validate(at: ConfigKeyPath.render(path), file: decoder.file)
        try KernelSettings.validateRemote(
            kernel.remote,
            at: ConfigKeyPath.render(path + ["remote"]),
            line: keyLine(["remote"], in: node),
            file: decoder.file
        )
        return PluginSection(
            kernel: kernel,
            settings: FrozenNode(node: SafeYAML.mapping(pluginPairs)),
            path: path
        )
    }

    /// The line of the key at `path` below `node`, for messages; nil when it is not there.
    private static func keyLine(_ path: [String], in node: Node) -> Int? {
        guard let first = path.first, case .mapping(let mapping) = node,
            let pair = mapping.first(where: { $0.key.scalar?.string == first })
        else { return nil }
        return path.count == 1 ? pair.key.mark?.line : keyLine(Array(path.dropFirst()), in: pair.value)
    }

    /// A fingerprint of what plugin (or declared domain) `name` is configured with: its own
    /// keys in a canonical form (key order and quoting do not count) and the remote it
    /// talks to. It changes when either does, and tells nothing of them.
    func fingerprint(of name: String) -> String {
        var parts: [Any] = [plugins[name]?.kernel.remote ?? domains[name]?.remote ?? kernel.server]
        if let section = plugins[name] { parts.append(Self.canonical(section.settings.node)) }
        if let domain = domains[name], let data = try? JSONEncoder.ferry.encode(domain),
            let object = try? JSONSerialization.jsonObject(with: data)
        {
            parts.append(object)
        }
        let data = (try? SortedJSON.data(parts)) ?? Data()
        return String(SHA256Hasher.hex(data).prefix(16))
    }

    /// A YAML node as plain values: mappings as dictionaries, sequences as arrays, scalars
    /// as their text.
    private static func canonical(_ node: Node) -> Any {
        switch node {
        case .mapping(let mapping):
            return Dictionary(
                mapping.map { ($0.key.string ?? "", canonical($0.value)) },
                uniquingKeysWith: { first, _ in first }
            )
        case .sequence(let sequence):
            return sequence.map(canonical)
        case .scalar(let scalar):
            return scalar.string
        case .alias:
            return ""
        }
    }

    /// Decodes a plugin's own keys into its settings type, refusing unknown keys.
    ///
    /// A plugin without a section decodes an empty mapping, so a `Settings` type whose
    /// keys all have defaults needs no section keys at all.
    public func decodeSettings<Settings: Codable>(_ type: Settings.Type, plugin: String) throws -> Settings {
        let section = plugins[plugin]
        return try StrictDecoder(file: file).decode(
            Settings.self,
            from: section?.settings.node ?? SafeYAML.mapping([]),
            at: section?.path ?? ["plugins", plugin]
        )
    }
}
