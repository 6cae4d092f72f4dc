/// What an operation needs from the network before it may be sent.
public enum NetworkRequirement: String, Codable, Sendable, CaseIterable {
    /// Any connection.
    case network
    /// A connection that is not metered: not cellular, and not pinned as metered.
    case unmetered
}

/// Whether an operation may wait in the outbox or must reach the remote now.
public enum Delivery: String, Codable, Sendable, CaseIterable {
    /// Stored and sent when possible; survives restarts.
    case queued
    /// Sent at once or refused at once with "requires a connection"; never stored.
    case onlineOnly = "online_only"
}
