/// How a new operation folds into an unsent one of the same kind on the same entity.
///
/// Only an operation never handed to the transport, queued under the same account, is
/// folded into; once one may have reached the remote, every later write is sent.
public enum CoalesceMode: String, Codable, Sendable, CaseIterable {
    /// Every operation is sent.
    case keepAll = "keep_all"
    /// The newer payload replaces the unsent one.
    case replace
    /// The payloads are JSON objects merged key by key (a JSON merge patch).
    case merge
}

/// The coalescing rules of one operation kind.
public struct CoalescePolicy: Sendable, Equatable {
    /// What happens with an unsent operation of the same kind.
    public var mode: CoalesceMode
    /// Kinds that this kind cancels: an unsent `save` and a new `unsave` leave nothing.
    public var cancels: Set<String>
    /// Kinds that this kind makes pointless: an unsent `update` before a `delete` is dropped.
    public var supersedes: Set<String>

    /// Creates rules; by default every operation is sent.
    public init(mode: CoalesceMode = .keepAll, cancels: Set<String> = [], supersedes: Set<String> = []) {
        self.mode = mode
        self.cancels = cancels
        self.supersedes = supersedes
    }

    /// What to do with the latest unsent operation (of kind `previousKind`) when an operation
    /// of `newKind` arrives. Two opposite writes cancel out only when the remote's state was
    /// known as the first was made (`remoteKnown`); otherwise the newer one is kept alone.
    func decision(previousKind: String, newKind: String, remoteKnown: Bool) -> CoalesceDecision {
        if cancels.contains(previousKind) { return remoteKnown ? .cancelBoth : .dropPrevious }
        if supersedes.contains(previousKind) { return .dropPrevious }
        guard previousKind == newKind else { return .append }
        switch mode {
        case .keepAll: return .append
        case .replace: return .replacePayload
        case .merge: return .mergePayload
        }
    }
}

/// The outcome of comparing a new operation with the latest unsent one on its entity.
enum CoalesceDecision: Sendable, Equatable {
    /// Keep both: the new operation is stored behind the unsent one.
    case append
    /// The new payload replaces the unsent operation's; nothing new is stored.
    case replacePayload
    /// The new payload is merged into the unsent operation's as a JSON merge patch.
    case mergePayload
    /// The unsent operation is removed, and the new one stored.
    case dropPrevious
    /// The unsent operation is removed, and the new one is not stored.
    case cancelBoth
}
