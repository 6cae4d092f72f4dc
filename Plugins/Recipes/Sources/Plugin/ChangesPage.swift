import Foundation
import SyncKernel

/// One page of a changes feed (`GET /v1/<collection>/changes`), read with
/// `JSONSerialization` so that free-form documents keep their keys exactly.
struct ChangesPage: Sendable {
    struct Change: Sendable {
        var id: String
        /// The entity as JSON for an upsert; nil for a deletion.
        var entity: Data?
    }

    var changes: [Change]
    var cursor: String
    var hasMore: Bool

    init(_ body: Data) throws {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let list = object["changes"] as? [[String: Any]], let cursor = object["cursor"] as? String
        else {
            throw FerryError(.rejected, "the remote's changes feed answered something that is not a page of changes")
        }
        self.cursor = cursor
        self.hasMore = object["has_more"] as? Bool ?? false
        self.changes = try list.map { change in
            guard let id = change["id"] as? String else {
                throw FerryError(.rejected, "the remote's changes feed sent a change without an id")
            }
            if change["type"] as? String == "delete" { return Change(id: id, entity: nil) }
            guard let entity = change["entity"] as? [String: Any] else {
                throw FerryError(
                    .rejected,
                    "the remote's changes feed sent an upsert of \(id.prefix(64)) without its entity"
                )
            }
            return Change(id: id, entity: try JSONSerialization.data(withJSONObject: entity, options: [.sortedKeys]))
        }
    }
}
