import Foundation

/// One field both sides changed to different values, as `ferry conflicts list` shows it.
public struct FieldConflict: Codable, Sendable, Equatable {
    /// The field's name in the remote's entity, such as `status`.
    public var field: String
    /// Its value when the local write was made, as JSON text; nil when the base is unknown.
    public var base: String?
    /// The value the local write sets, as JSON text (`null` clears it).
    public var local: String
    /// The remote's current value, as JSON text.
    public var remote: String

    /// Creates a field's conflict from its values as JSON text.
    public init(field: String, base: String?, local: String, remote: String) {
        self.field = field
        self.base = base
        self.local = local
        self.remote = remote
    }
}

/// A conflicting write merged field by field against the base the client last saw.
///
/// For an operation whose plugin names the entity fields it sets (`SyncPlugin.fieldChanges`),
/// a field the remote left as it was in the base takes the local value without a
/// conflict, and so does a field both sides set to the same value. Only a field both
/// sides changed differently is a conflict; the policy decides those fields, and only
/// those.
struct FieldMerge {
    /// The fields both sides changed to different values.
    let conflicts: [FieldConflict]

    /// Splits `local` (the entity fields the write sets) against `base` and `remote` (the
    /// entity before the write and now, JSON objects). Nil when either is not a JSON
    /// object: the write is decided whole.
    init?(base: Data?, local: Data, remote: Data) {
        guard let remote = Self.object(remote), let local = Self.object(local) else { return nil }
        let base = base.flatMap(Self.object)
        conflicts = local.keys.sorted().compactMap { field in
            let mine = Self.canonical(local[field]), theirs = Self.canonical(remote[field])
            guard mine != theirs else { return nil }
            let before = base.map { Self.canonical($0[field]) }
            // The remote left the field as the base had it: the local value goes on top.
            if let before, before == theirs { return nil }
            return FieldConflict(field: field, base: before, local: mine, remote: theirs)
        }
    }

    /// `payload` (a JSON object keyed by entity field) without `fields`; nil when nothing is left.
    static func payload(_ payload: Data, dropping fields: [String]) throws -> Data? {
        guard var object = object(payload) else {
            throw FerryError(.plugin, "an operation merged field by field has a payload that is not a JSON object")
        }
        for field in fields { object.removeValue(forKey: field) }
        guard !object.isEmpty else { return nil }
        return try SortedJSON.data(object)
    }

    private static func object(_ data: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// A value as canonical JSON text; an absent field reads as `null`.
    private static func canonical(_ value: Any?) -> String {
        let value = value ?? NSNull()
        guard
            let data = try? SortedJSON.data(value, escapingSlashes: false)
        else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
