/// JSON merge patch (RFC 7386): `null` removes a key, objects merge key by key, anything
/// else replaces the value it lands on.
enum MergePatch {
    /// `target` with `patch` applied.
    static func apply(_ patch: JSON, to target: JSON) -> JSON {
        guard case .object(let changes) = patch else { return patch }
        var result = target.objectValue ?? [:]
        for (key, value) in changes {
            if value.isNull {
                result.removeValue(forKey: key)
            } else {
                result[key] = apply(value, to: result[key] ?? .null)
            }
        }
        return .object(result)
    }
}
