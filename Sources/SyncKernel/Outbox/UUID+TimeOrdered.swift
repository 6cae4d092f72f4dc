import Foundation
import Synchronization

extension UUID {
    /// A version 7 UUID (RFC 9562): the Unix time in milliseconds, then random bits.
    ///
    /// Operation ids are time-ordered so that the outbox's unique index on `id` grows at
    /// its end, as the queue does, instead of at a random page: at 1M pending operations a
    /// random id made every insert touch a page of the index that was no longer cached.
    public static func timeOrdered(at date: Date) -> UUID {
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        var random = IDRandom.shared.next()
        return withUnsafeMutableBytes(of: &random) { bytes in
            for index in 0..<6 {
                bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index)))
            }
            bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7
            bytes[8] = 0x80 | (bytes[8] & 0x3F)  // variant 10
            return UUID(uuid: bytes.load(as: uuid_t.self))
        }
    }

    /// The canonical text form in lower case, as the store and the wire keep ids: what
    /// `uuidString.lowercased()` gives, without formatting through C and copying twice.
    public var lowercasedString: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                let digits: StaticString = "0123456789abcdef"
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = digits.utf8Start[Int(byte >> 4)]
                    text[position + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }
}

/// The random half of operation ids: a xoshiro256** generator seeded once per process from
/// the system's, instead of two system calls per id.
private final class IDRandom: Sendable {
    static let shared = IDRandom()

    private let state: Mutex<(UInt64, UInt64, UInt64, UInt64)>

    private init() {
        var system = SystemRandomNumberGenerator()
        state = Mutex((system.next(), system.next(), system.next(), system.next() | 1))
    }

    /// Sixteen random bytes.
    func next() -> (UInt64, UInt64) {
        state.withLock { state in (Self.step(&state), Self.step(&state)) }
    }

    private static func step(_ s: inout (UInt64, UInt64, UInt64, UInt64)) -> UInt64 {
        let result = rotate(s.1 &* 5, 7) &* 9
        let t = s.1 << 17
        s.2 ^= s.0
        s.3 ^= s.1
        s.1 ^= s.2
        s.0 ^= s.3
        s.2 ^= t
        s.3 = rotate(s.3, 45)
        return result
    }

    private static func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
