/// How far a committed local write is guaranteed to survive.
public enum Durability: String, Codable, Sendable, CaseIterable {
    /// `synchronous=NORMAL` in WAL: survives the program crashing or being killed,
    /// may lose the last commits on a power loss or kernel panic. The default.
    case normal
    /// `synchronous=FULL`: every commit is fsynced; survives a power loss. Slower.
    case full
}
