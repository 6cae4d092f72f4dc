import Foundation

/// What a refresh changed in the list.
struct ListChange {
    var added: [Movie] = []
    var removed: [Movie] = []
    var changed: [Movie] = []

    init(before: [Movie], after: [Movie]) {
        let old = Dictionary(before.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let new = Dictionary(after.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        added = after.filter { old[$0.id] == nil }
        removed = before.filter { new[$0.id] == nil }
        changed = after.filter { movie in old[movie.id].map { $0 != movie } ?? false }
    }

    var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    var summary: String {
        var parts: [String] = []
        if !added.isEmpty { parts.append("\(added.count) new (\(added.map(\.title).joined(separator: ", ")))") }
        if !changed.isEmpty {
            parts.append("\(changed.count) changed (\(changed.map(\.title).joined(separator: ", ")))")
        }
        if !removed.isEmpty {
            parts.append("\(removed.count) removed (\(removed.map(\.title).joined(separator: ", ")))")
        }
        return parts.joined(separator: "; ")
    }
}
