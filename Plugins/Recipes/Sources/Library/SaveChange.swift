import SyncKernel

/// What a save, unsave or toggle did locally.
public struct SaveChange: Sendable, Equatable, Encodable {
    /// The recipe.
    public var id: String
    /// Whether the recipe is saved now.
    public var saved: Bool
    /// False when nothing was queued: it already was in that state, as far as the device
    /// knows (before the saved set's first pull it knows nothing, and an explicit save or
    /// unsave is queued).
    public var changed: Bool
    /// What became of the queued operation: `queued`, `cancelled` (it undid an unsent
    /// opposite operation, so nothing is sent) or `unchanged`.
    public var sync: String
    /// What the outbox did with the operation; nil when nothing was queued.
    public var enqueued: EnqueueResult?

    enum CodingKeys: String, CodingKey {
        case id, saved, changed, sync
    }

    init(id: String, saved: Bool, result: EnqueueResult?) {
        self.id = id
        self.enqueued = result
        self.saved = saved
        self.changed = result != nil
        switch result {
        case nil: sync = "unchanged"
        case .cancelled: sync = "cancelled"
        case .inserted, .coalesced: sync = "queued"
        }
    }
}
