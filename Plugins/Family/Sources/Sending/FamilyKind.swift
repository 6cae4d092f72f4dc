/// The operation kinds of the family plugin, as named in `config.yaml`
/// (`plugins.family.operations.<kind>`).
public enum FamilyKind: String, Sendable, CaseIterable {
    case groupCreate = "group_create"
    case memberAdd = "member_add"
    case roundStart = "round_start"
    case roundClose = "round_close"
    case suggest
    case vote
    case pick
}
