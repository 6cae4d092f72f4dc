import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562): the Unix time in milliseconds, then random bits.
    ///
    /// Operation ids are time-ordered so that the outbox's unique index on `id` grows at
    /// its end, as the queue does, instead of at a random page: at 1M pending operations a
    /// random id made every insert touch a page of the index that was no longer cached.
    public static func timeOrdered(at date: Date) -> UUID {
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        // Sixteen bytes from two draws of the system's generator: drawn one byte at a time
        // they cost sixteen system calls, and `UUID()` opens and reads a device file.
        var generator = SystemRandomNumberGenerator()
        var random = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &random) { bytes in
            for index in 0..<6 {
                bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index)))
            }
            bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7
            bytes[8] = 0x80 | (bytes[8] & 0x3F)  // variant 10
            return UUID(uuid: bytes.load(as: uuid_t.self))
        }
    }
}
