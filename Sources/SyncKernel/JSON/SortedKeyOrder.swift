import Foundation
import Synchronization

/// The order in which `JSONSerialization` writes an object's keys with `.sortedKeys`: a
/// numeric, case-insensitive comparison that falls back to a case-sensitive one (Foundation's
/// `[.numeric, .caseInsensitive, .forcedOrdering]`), so `"a9"` comes before `"a10"` and
/// `"_x"` before `"a"`.
///
/// That comparison costs about a microsecond a pair, and the entities of one kind share
/// their keys, so each set of keys is sorted once and remembered. At most `capacity` sets
/// are kept; past that the memory starts again empty.
enum SortedKeyOrder {
    static let capacity = 512
    private static let known = Mutex<[Set<String>: [String]]>([:])

    static func keys(of object: [String: Any]) -> [String] {
        if object.count < 2 { return Array(object.keys) }
        let keys = Set(object.keys)
        if let order = known.withLock({ $0[keys] }) { return order }
        let order = keys.sorted(by: precedes)
        known.withLock { known in
            if known.count >= capacity { known.removeAll(keepingCapacity: true) }
            known[keys] = order
        }
        return order
    }

    static func precedes(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: a.startIndex..<a.endIndex, locale: NSLocale.system)
            == .orderedAscending
    }
}
