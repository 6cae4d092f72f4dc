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
    /// `pull_every`, as written. The runner reads `pull_every` from plugin sections only, so a
    /// declared domain pulls every `sync.pull_every` whatever this says.
    public var pullEvery: Seconds?
    /// The backoff of the domain's operations, over the top-level `retry:`.
    public var retry: RetryOverride?
    /// The domain's operations, by kind.
    public var operations: [String: DeclaredOperation]

    enum CodingKeys: String, CodingKey {
        case remote, pull
        case pullEvery = "pull_every"
        case retry, operations
    }
}

/// One operation of a declared domain: an HTTP call and the operation's policy.
public struct DeclaredOperation: Codable, Sendable, Equatable {
    /// GET, PUT, POST, PATCH or DELETE (compared without case). PUT and POST store the body
    /// as the local document, PATCH merges it in, DELETE removes the document.
    public var method: String
    /// The path below the remote; `{entity}` is replaced by the entity key, percent-encoded.
    public var path: String
    /// `delivery`: `queued` (the default) or `online_only`.
    public var delivery: Delivery?
    /// `requires`: `network` (the default) or `unmetered`.
    public var requires: NetworkRequirement?
    /// `coalesce`: how a new write folds into an unsent one of the same entity.
    public var coalesce: CoalesceMode?
    /// `cancels`: kinds of this domain whose unsent operation and this one cancel out.
    public var cancels: [String]?
    /// `supersedes`: kinds of this domain whose unsent operations this one drops.
    public var supersedes: [String]?
    /// `conflict`: what happens when the remote answers 409 or 412.
    public var conflict: ConflictPolicy?
    /// `retry`: the operation's own backoff, over the domain's.
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
