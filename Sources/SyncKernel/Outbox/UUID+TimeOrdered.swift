import Foundation

extension UUID {
    /// A version 7 UUID (RFC 9562): the Unix time in milliseconds, then random bits.
    ///
    /// Operation ids are time-ordered so that the outbox's unique index on `id` grows at
    /// its end, as the queue does, instead of at a random page: at 1M pending operations a
    /// random id made every insert touch a page of the index that was no longer cached.
    public static func timeOrdered(at date: Date) -> UUID {
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        for index in 0..<6 {
            bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index)))
        }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)  // variant 10
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }
}
