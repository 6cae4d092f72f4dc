/// The family plugin's own keys in `config.yaml` (under `plugins.family`).
public struct FamilySettings: Codable, Sendable, Equatable {
    /// The group that `ferry family member add` and `round start` use when none is named.
    public var defaultGroup: String?

    /// Settings with an optional default group.
    public init(defaultGroup: String? = nil) {
        self.defaultGroup = defaultGroup
    }

    enum CodingKeys: String, CodingKey {
        case defaultGroup = "default_group"
    }
}
