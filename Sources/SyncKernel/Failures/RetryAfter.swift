import Foundation

/// Parses an HTTP `Retry-After` value: delay seconds or an HTTP date.
enum RetryAfter {
    /// The longest wait the kernel accepts from a remote.
    static let ceiling: TimeInterval = 24 * 3600

    static func seconds(from value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 {
            return min(seconds, ceiling)
        }
        guard let date = httpDate(trimmed) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), ceiling)
    }

    /// IMF-fixdate, RFC 850 and asctime, as RFC 9110 requires a recipient to accept.
    static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
