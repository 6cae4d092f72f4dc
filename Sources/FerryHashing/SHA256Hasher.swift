import Crypto
import Foundation

/// An incremental SHA-256 with a hex digest: file checksums verified without holding the
/// file in memory, token hashes and request fingerprints. The kernel and the reference
/// server both use this one; the hashing itself is swift-crypto's.
///
/// ```swift
/// var hasher = SHA256Hasher()
/// hasher.update(chunk)
/// let hex = hasher.finalize()
/// ```
public struct SHA256Hasher: Sendable {
    private var hash = SHA256()

    /// A hasher with nothing hashed yet.
    public init() {}

    /// The digest of `string`'s UTF-8 bytes as 64 lowercase hex characters.
    public static func hex(_ string: String) -> String { hex(Data(string.utf8)) }

    /// The digest of `data` as 64 lowercase hex characters.
    public static func hex(_ data: Data) -> String {
        Self.hex(SHA256.hash(data: data))
    }

    /// The hex digest of the file at `url`, read in 1 MiB chunks.
    public static func hex(fileAt url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256Hasher()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(chunk)
        }
        return hasher.finalize()
    }

    /// Adds `data` to what is hashed.
    public mutating func update(_ data: Data) {
        hash.update(data: data)
    }

    /// The digest as 64 lowercase hex characters; the hasher should not be used afterwards.
    public mutating func finalize() -> String {
        Self.hex(hash.finalize())
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
