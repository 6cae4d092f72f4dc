import Foundation

/// Encodes `value` with every known field present: an optional without a value becomes
/// `null` where synthesized `Encodable` would leave the key out, at every depth.
///
/// Maps with `String` keys keep their keys verbatim (they are data: plugin names, ids).
struct NullsKept<Value: Encodable>: Encodable {
    let value: Value

    init(_ value: Value) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: NullKeepingEncoder(base: encoder))
    }
}

/// `value`, wrapped so that its own fields keep their nulls; values the JSON encoder
/// formats itself (dates, data, URLs, decimals) and documents pass as they are.
private func keepingNulls<T: Encodable>(_ value: T) -> any Encodable {
    switch value {
    case is Date, is Data, is URL, is Decimal, is JSONValue: return value
    case let map as [String: any Encodable]: return VerbatimMap(members: map)
    default: return NullsKept<T>(value)
    }
}

/// A `[String: Value]` map as a JSON object with its keys as they are.
private struct VerbatimMap: Encodable {
    let members: [String: any Encodable]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: VerbatimKey.self)
        for (key, value) in members { try container.encode(keepingNulls(value), forKey: VerbatimKey(key)) }
    }
}

private struct NullKeepingEncoder: Encoder {
    let base: any Encoder
    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedNulls(base: base.container(keyedBy: type)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { UnkeyedNulls(base: base.unkeyedContainer()) }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNulls(base: base.singleValueContainer())
    }
}

private struct KeyedNulls<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<Key>
    var codingPath: [any CodingKey] { base.codingPath }

    private mutating func put<T: Encodable>(_ value: T?, _ key: Key) throws {
        guard let value else { return try base.encodeNil(forKey: key) }
        try base.encode(keepingNulls(value), forKey: key)
    }

    mutating func encodeNil(forKey key: Key) throws { try base.encodeNil(forKey: key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try base.encode(value, forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try base.encode(value, forKey: key) }

    // Where synthesized `Encodable` would drop the key, write `null`.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try put(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try put(value, key) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedNulls<NestedKey>(base: base.nestedContainer(keyedBy: keyType, forKey: key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedNulls(base: base.nestedUnkeyedContainer(forKey: key))
    }

    mutating func superEncoder() -> any Encoder { NullKeepingEncoder(base: base.superEncoder()) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NullKeepingEncoder(base: base.superEncoder(forKey: key))
    }
}

private struct UnkeyedNulls: UnkeyedEncodingContainer {
    var base: any UnkeyedEncodingContainer
    var codingPath: [any CodingKey] { base.codingPath }
    var count: Int { base.count }

    mutating func encodeNil() throws { try base.encodeNil() }
    mutating func encode<T: Encodable>(_ value: T) throws { try base.encode(keepingNulls(value)) }
    mutating func encode(_ value: Bool) throws { try base.encode(value) }
    mutating func encode(_ value: String) throws { try base.encode(value) }
    mutating func encode(_ value: Double) throws { try base.encode(value) }
    mutating func encode(_ value: Float) throws { try base.encode(value) }
    mutating func encode(_ value: Int) throws { try base.encode(value) }
    mutating func encode(_ value: Int8) throws { try base.encode(value) }
    mutating func encode(_ value: Int16) throws { try base.encode(value) }
    mutating func encode(_ value: Int32) throws { try base.encode(value) }
    mutating func encode(_ value: Int64) throws { try base.encode(value) }
    mutating func encode(_ value: UInt) throws { try base.encode(value) }
    mutating func encode(_ value: UInt8) throws { try base.encode(value) }
    mutating func encode(_ value: UInt16) throws { try base.encode(value) }
    mutating func encode(_ value: UInt32) throws { try base.encode(value) }
    mutating func encode(_ value: UInt64) throws { try base.encode(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedNulls<NestedKey>(base: base.nestedContainer(keyedBy: keyType)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedNulls(base: base.nestedUnkeyedContainer())
    }

    mutating func superEncoder() -> any Encoder { NullKeepingEncoder(base: base.superEncoder()) }
}

private struct SingleNulls: SingleValueEncodingContainer {
    var base: any SingleValueEncodingContainer
    var codingPath: [any CodingKey] { base.codingPath }

    mutating func encodeNil() throws { try base.encodeNil() }
    mutating func encode<T: Encodable>(_ value: T) throws { try base.encode(keepingNulls(value)) }
    mutating func encode(_ value: Bool) throws { try base.encode(value) }
    mutating func encode(_ value: String) throws { try base.encode(value) }
    mutating func encode(_ value: Double) throws { try base.encode(value) }
    mutating func encode(_ value: Float) throws { try base.encode(value) }
    mutating func encode(_ value: Int) throws { try base.encode(value) }
    mutating func encode(_ value: Int8) throws { try base.encode(value) }
    mutating func encode(_ value: Int16) throws { try base.encode(value) }
    mutating func encode(_ value: Int32) throws { try base.encode(value) }
    mutating func encode(_ value: Int64) throws { try base.encode(value) }
    mutating func encode(_ value: UInt) throws { try base.encode(value) }
    mutating func encode(_ value: UInt8) throws { try base.encode(value) }
    mutating func encode(_ value: UInt16) throws { try base.encode(value) }
    mutating func encode(_ value: UInt32) throws { try base.encode(value) }
    mutating func encode(_ value: UInt64) throws { try base.encode(value) }
}
