import Foundation
import Synchronization

/// The order in which `JSONSerialization` writes an object's keys with `.sortedKeys`: a
/// numeric, case-insensitive comparison that falls back to a case-sensitive one (Foundation's
/// `[.numeric, .caseInsensitive, .forcedOrdering]`), so `"a9"` comes before `"a10"` and
/// `"_x"` before `"a"`.
///
/// That comparison costs about a microsecond a pair. Keys of lower-case ASCII letters and
/// underscores alone, as most are, it orders as their bytes (`SortedJSONTests` compares
/// the two on every string of up to three such characters), so those are sorted as bytes.
/// Other sets of keys are sorted by Foundation's comparison once and remembered: the
/// entities of one kind share their keys. At most `capacity` sets are kept; past that the
/// memory starts again empty.
enum SortedKeyOrder {
    static let capacity = 512
    private static let known = Mutex<[Set<String>: [String]]>([:])

    static func keys(of object: [String: Any]) -> [String] {
        if object.count < 2 { return Array(object.keys) }
        if object.keys.allSatisfy(isPlain) { return object.keys.sorted() }
        let keys = Set(object.keys)
        if let order = known.withLock({ $0[keys] }) { return order }
        let order = keys.sorted(by: precedes)
        known.withLock { known in
            if known.count >= capacity { known.removeAll(keepingCapacity: true) }
            known[keys] = order
        }
        return order
    }

    /// Lower-case ASCII letters and underscores only, and at least one of them.
    static func isPlain(_ key: String) -> Bool {
        !key.isEmpty && key.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    }

    static func precedes(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: a.startIndex..<a.endIndex, locale: NSLocale.system)
            == .orderedAscending
    }
}
