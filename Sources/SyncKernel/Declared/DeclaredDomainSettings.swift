/// A domain declared in `config.yaml` alone: its remote, its operations as HTTP calls,
/// and optionally a changes feed to pull.
///
/// ```yaml
/// domains:
///   bookmarks:
///     pull: /v1/bookmarks/changes
///     operations:
///       put: {method: PUT, path: "/v1/bookmarks/{entity}", coalesce: replace}
///       delete: {method: DELETE, path: "/v1/bookmarks/{entity}", supersedes: [put]}
/// ```
public struct DeclaredDomainSettings: Codable, Sendable, Equatable {
    /// A base URL for this domain only; default: the top-level `server`.
    public var remote: String?
    /// The path of a changes feed in the format of docs/protocol.md, section 6.
    public var pull: String?
    public var pullEvery: Seconds?
    public var retry: RetryOverride?
    public var operations: [String: DeclaredOperation]

    enum CodingKeys: String, CodingKey {
        case remote, pull
        case pullEvery = "pull_every"
        case retry, operations
    }
}

/// One operation of a declared domain: an HTTP call and the operation's policy.
public struct DeclaredOperation: Codable, Sendable, Equatable {
    /// GET, PUT, POST, PATCH or DELETE.
    public var method: String
    /// The path below the remote; `{entity}` is replaced by the entity key, percent-encoded.
    public var path: String
    public var delivery: Delivery?
    public var requires: NetworkRequirement?
    public var coalesce: CoalesceMode?
    public var cancels: [String]?
    public var supersedes: [String]?
    public var conflict: ConflictPolicy?
    public var retry: RetryOverride?

    /// The policy these keys describe, over the kernel's defaults.
    var policy: OperationPolicy {
        var override = OperationOverride()
        override.delivery = delivery
        override.requires = requires
        override.coalesce = coalesce
        override.cancels = cancels
        override.supersedes = supersedes
        override.conflict = conflict
        override.retry = retry
        return override.applied(to: OperationPolicy())
    }

    /// Whether the local row goes away when this operation is queued.
    var removes: Bool { method.uppercased() == "DELETE" }
}
