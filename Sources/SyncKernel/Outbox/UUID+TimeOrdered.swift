import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562): the Unix time in milliseconds, then random bits.
    ///
    /// Operation ids are time-ordered so that the outbox's unique index on `id` grows at
    /// its end, as the queue does, instead of at a random page: at 1M pending operations a
    /// random id made every insert touch a page of the index that was no longer cached.
    public static func timeOrdered(at date: Date) -> UUID {
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        // The random bits of a version 4 UUID: one call to the system's generator, where
        // drawing the bytes one by one made sixteen.
        var uuid = UUID().uuid
        withUnsafeMutableBytes(of: &uuid) { bytes in
            for index in 0..<6 {
                bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index)))
            }
            bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7
            bytes[8] = 0x80 | (bytes[8] & 0x3F)  // variant 10
        }
        return UUID(uuid: uuid)
    }
}
