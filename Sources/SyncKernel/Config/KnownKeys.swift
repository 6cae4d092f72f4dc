import Foundation

/// The keys a decoded model writes back when encoded, as a tree: what `StrictDecoder`
/// compares the file's keys with.
///
/// An encoder of its own that keeps only key names: encoding the model to YAML text and
/// parsing it again did the same at about a tenth of a command's start-up (dynamic casts in
/// the YAML encoder for every value).
indirect enum KnownKeys: Sendable {
    /// A value without keys of its own (a scalar, or nothing).
    case leaf
    case mapping([String: KnownKeys])
    case sequence([KnownKeys])

    /// The keys `value` encodes.
    static func of(_ value: some Encodable) throws -> KnownKeys {
        let encoder = KeyCollector()
        try value.encode(to: encoder)
        return encoder.root.tree
    }

    /// The keys under `key`, when this is a mapping that has it.
    subscript(key: String) -> KnownKeys? {
        if case .mapping(let children) = self { return children[key] }
        return nil
    }
}

/// A node of the tree being collected; reference-typed so that nested containers fill it in place.
private final class KeyNode {
    var children: [String: KeyNode] = [:]
    var items: [KeyNode] = []
    var isMapping = false
    var isSequence = false

    var tree: KnownKeys {
        if isMapping { return .mapping(children.mapValues(\.tree)) }
        if isSequence { return .sequence(items.map(\.tree)) }
        return .leaf
    }

    func child(_ key: String) -> KeyNode {
        isMapping = true
        if let existing = children[key] { return existing }
        let node = KeyNode()
        children[key] = node
        return node
    }

    func item() -> KeyNode {
        isSequence = true
        let node = KeyNode()
        items.append(node)
        return node
    }
}

private struct KeyCollector: Encoder {
    var root = KeyNode()
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        root.isMapping = true
        return KeyedEncodingContainer(Keyed<Key>(node: root, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        root.isSequence = true
        return Unkeyed(node: root, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(node: root, codingPath: codingPath)
    }

    /// Encodes `value` into `node`.
    static func encode(_ value: some Encodable, into node: KeyNode, at path: [any CodingKey]) throws {
        try value.encode(to: KeyCollector(root: node, codingPath: path))
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: KeyNode
        var codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { _ = node.child(key.stringValue) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try KeyCollector.encode(value, into: node.child(key.stringValue), at: codingPath + [key])
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = node.child(key.stringValue)
            child.isMapping = true
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: codingPath + [key]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = node.child(key.stringValue)
            child.isSequence = true
            return Unkeyed(node: child, codingPath: codingPath + [key])
        }
        mutating func superEncoder() -> any Encoder { KeyCollector(root: node, codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            KeyCollector(root: node.child(key.stringValue), codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: KeyNode
        var codingPath: [any CodingKey]
        var count: Int { node.items.count }

        mutating func encodeNil() throws { _ = node.item() }
        mutating func encode<T: Encodable>(_ value: T) throws {
            try KeyCollector.encode(value, into: node.item(), at: codingPath)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let item = node.item()
            item.isMapping = true
            return KeyedEncodingContainer(Keyed<NestedKey>(node: item, codingPath: codingPath))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let item = node.item()
            item.isSequence = true
            return Unkeyed(node: item, codingPath: codingPath)
        }
        mutating func superEncoder() -> any Encoder { KeyCollector(root: node.item(), codingPath: codingPath) }
    }

    struct Single: SingleValueEncodingContainer {
        let node: KeyNode
        var codingPath: [any CodingKey]

        mutating func encodeNil() throws {}
        mutating func encode(_ value: Bool) throws {}
        mutating func encode(_ value: String) throws {}
        mutating func encode(_ value: Double) throws {}
        mutating func encode(_ value: Float) throws {}
        mutating func encode(_ value: Int) throws {}
        mutating func encode(_ value: Int8) throws {}
        mutating func encode(_ value: Int16) throws {}
        mutating func encode(_ value: Int32) throws {}
        mutating func encode(_ value: Int64) throws {}
        mutating func encode(_ value: UInt) throws {}
        mutating func encode(_ value: UInt8) throws {}
        mutating func encode(_ value: UInt16) throws {}
        mutating func encode(_ value: UInt32) throws {}
        mutating func encode(_ value: UInt64) throws {}
        mutating func encode<T: Encodable>(_ value: T) throws {
            try KeyCollector.encode(value, into: node, at: codingPath)
        }
    }
}
