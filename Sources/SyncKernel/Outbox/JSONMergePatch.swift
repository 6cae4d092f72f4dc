import Foundation

/// RFC 7386 JSON merge patch: applies `patch` on top of `target`.
///
/// Objects merge key by key, `null` removes a key, anything else replaces.
enum JSONMergePatch {
    static func apply(_ patch: Data, to target: Data) throws -> Data {
        let base = try JSONSerialization.jsonObject(with: target, options: [.fragmentsAllowed])
        let change = try JSONSerialization.jsonObject(with: patch, options: [.fragmentsAllowed])
        let merged = merge(change, into: base)
        return try SortedJSON.data(merged)
    }

    private static func merge(_ patch: Any, into target: Any) -> Any {
        guard let patchObject = patch as? [String: Any] else { return patch }
        var result = (target as? [String: Any]) ?? [:]
        for (key, value) in patchObject {
            if value is NSNull {
                result.removeValue(forKey: key)
            } else {
                result[key] = merge(value, into: result[key] ?? NSNull())
            }
        }
        return result
    }
}
