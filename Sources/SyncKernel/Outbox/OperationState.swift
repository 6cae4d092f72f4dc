/// Where an operation stands in the outbox.
public enum OperationState: String, Codable, Sendable, CaseIterable {
    /// Behind an earlier operation on the same entity; it goes out after that one.
    case queued
    /// First in line for its entity; sent once it is due and its requirements hold.
    case pending
    /// Leased by a runner and being sent now.
    case inFlight = "in_flight"
    /// Can never succeed as it is; blocks its entity until retried or discarded.
    case dead
    /// Waiting for a person to resolve a conflict (`ferry conflicts resolve`).
    case conflict
}
