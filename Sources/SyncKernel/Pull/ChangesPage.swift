import Foundation

/// One page of a changes feed, as docs/protocol.md defines it:
/// `{"changes": [{"type": "upsert"|"delete", "id", "entity"?}], "cursor", "has_more"}`.
///
/// The page is checked whole before anything is applied: a change without an id, of
/// another type, an upsert without its entity or with an entity whose `id` names another
/// entity makes the page unreadable (rejected), and no row changes.
struct ChangesPage: Sendable {
    struct Change: Sendable {
        var id: String
        /// The entity as the remote sent it (keys sorted); nil for a deletion.
        var entity: Data?
    }

    var changes: [Change]
    var cursor: String
    var hasMore: Bool

    init(_ body: Data, feed: String) throws {
        func unreadable(_ what: String) -> FerryError {
            FerryError(.rejected, "the changes feed \(feed) \(what); nothing of this page was applied")
        }
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let list = object["changes"] as? [[String: Any]], let cursor = object["cursor"] as? String
        else {
            throw unreadable("answered something that is not a page of changes")
        }
        self.cursor = cursor
        self.hasMore = object["has_more"] as? Bool ?? false
        self.changes = try list.map { change in
            guard let id = change["id"] as? String, !id.isEmpty else { throw unreadable("sent a change without an id") }
            switch change["type"] as? String {
            case "delete":
                return Change(id: id, entity: nil)
            case "upsert":
                guard let entity = change["entity"] as? [String: Any] else {
                    throw unreadable("sent an upsert of \(id.prefix(64)) without its entity")
                }
                if let other = entity["id"], (other as? String) != id {
                    throw unreadable("sent an upsert of \(id.prefix(64)) whose entity is another one (id \(other))")
                }
                return Change(id: id, entity: try SortedJSON.data(entity))
            case let type:
                throw unreadable("sent a change of type \(type.map { "\"\($0.prefix(32))\"" } ?? "none"); expected upsert or delete")
            }
        }
    }
}
