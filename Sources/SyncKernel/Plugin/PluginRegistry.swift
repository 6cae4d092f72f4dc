import Foundation

/// The enabled plugins of a runner, built from their types and `config.yaml`,
/// with the policies of every operation they send.
public struct PluginRegistry: Sendable {
    /// Enabled plugins in the order the composition root lists them, then the declared
    /// domains by name.
    public let plugins: [any SyncPlugin]
    /// The policy of every operation kind, with the overrides of `config.yaml` applied.
    let policies: PolicyBook

    /// The enabled plugin called `name`.
    public func plugin(named name: String) -> (any SyncPlugin)? {
        plugins.first { $0.pluginName == name }
    }

    /// The names of the enabled plugins and declared domains, in `plugins` order.
    public var names: [String] { plugins.map(\.pluginName) }

    /// The enabled plugins whose operations each go in a delivery of their own
    /// (`SyncPlugin.sendsAlone`).
    var sendingAlone: Set<String> {
        Set(plugins.filter { type(of: $0).sendsAlone }.map(\.pluginName))
    }

    /// The plugin types that `configuration` enables, after checking that it names only known plugins.
    static func enabledTypes(
        _ types: [any SyncPlugin.Type],
        in configuration: FerryConfiguration
    ) throws -> [any SyncPlugin.Type] {
        let known = Set(types.map { $0.name })
        for name in configuration.plugins.keys.sorted() where !known.contains(name) {
            throw FerryError(
                .configuration,
                "\(configuration.file): plugins.\(name) is not a plugin this build knows; known plugins: \(types.map { $0.name }.joined(separator: ", "))"
            )
        }
        return types.filter { configuration.plugins[$0.name]?.kernel.enabled == true }
    }

    /// The policies of every operation of `types`: plugin defaults, then the global
    /// retry override, the plugin's, and each operation's. Operations named in YAML
    /// that the plugin does not send are an error.
    static func policies(for types: [any SyncPlugin.Type], in configuration: FerryConfiguration) throws -> PolicyBook {
        var book = PolicyBook()
        for type in types {
            let section = configuration.plugins[type.name]?.kernel ?? PluginKernelSettings()
            for kind in section.operations.keys.sorted() where type.operations[kind] == nil {
                throw FerryError(
                    .configuration,
                    "\(configuration.file): plugins.\(type.name).operations.\(kind) is not an operation of \(type.name); it has: \(type.operations.keys.sorted().joined(separator: ", "))"
                )
            }
            for (kind, defaults) in type.operations {
                var policy = defaults
                policy.retry = configuration.kernel.retry.applied(to: policy.retry)
                if let retry = section.retry { policy.retry = retry.applied(to: policy.retry) }
                if let override = section.operations[kind] { policy = override.applied(to: policy) }
                try validate(
                    policy,
                    plugin: type.name,
                    kind: kind,
                    known: Set(type.operations.keys),
                    file: configuration.file
                )
                book.set(policy, plugin: type.name, kind: kind)
            }
        }
        return book
    }

    /// Adds the policies of a declared domain, checking them as a plugin's are checked.
    static func register(
        _ domain: DeclaredDomain,
        into book: inout PolicyBook,
        in configuration: FerryConfiguration
    ) throws {
        let known = Set(domain.settings.operations.keys)
        for (kind, policy) in domain.policies(globalRetry: configuration.kernel.retry) {
            try validate(
                policy,
                plugin: domain.pluginName,
                kind: kind,
                known: known,
                file: configuration.file,
                section: "domains"
            )
            book.set(policy, plugin: domain.pluginName, kind: kind)
        }
    }

    private static func validate(
        _ policy: OperationPolicy,
        plugin: String,
        kind: String,
        known: Set<String>,
        file: String,
        section: String = "plugins"
    ) throws {
        let path = "\(section).\(plugin).operations.\(kind)"
        for other in policy.coalesce.cancels.union(policy.coalesce.supersedes) where !known.contains(other) {
            throw FerryError(
                .configuration,
                "\(file): \(path) refers to \(other), which is not an operation of \(plugin)"
            )
        }
        let retry = policy.retry
        guard retry.maxAttempts >= 1, retry.baseDelay >= 0, retry.maxDelay >= retry.baseDelay, retry.multiplier >= 1,
            (0...1).contains(retry.jitter)
        else {
            throw FerryError(
                .configuration,
                "\(file): \(path).retry is inconsistent; max_attempts must be at least 1, multiplier at least 1, jitter between 0 and 1, and max_delay no less than base_delay"
            )
        }
    }
}
