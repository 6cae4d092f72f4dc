import Foundation
import GRDB
import SyncKernel

extension RecipesPlugin {
    /// Follows the recipes feed and the saved-set feed, then fetches the photos of saved
    /// recipes and removes photos nobody needs any more.
    ///
    /// A pull never undoes a local write: a row whose entity still has unsent operations
    /// takes the remote state as its base and gets those operations applied again.
    public func pull(_ context: PullContext) async throws -> PullSummary {
        var summary = try await follow("/v1/recipes/changes", cursor: "recipes", context: context) {
            change,
            pending,
            db in
            try Self.applyRecipe(change, pending: pending, now: context.clock.now(), in: db)
        }
        summary =
            summary
            + (try await follow("/v1/saved-recipes/changes", cursor: "saved", context: context) { change, pending, db in
                try Self.applySaved(change, pending: pending, now: context.clock.now(), in: db)
            })
        if settings.downloadPhotos { try await downloadPhotos(context) }
        try await sweepPhotos(context)
        return summary
    }

    /// What applying one change did.
    enum Applied { case upserted, deleted, rebased }

    /// Pages through one feed; each page and its cursor commit in one transaction.
    private func follow(
        _ path: String,
        cursor name: String,
        context: PullContext,
        apply: @escaping @Sendable (ChangesPage.Change, [QueuedOperation], Database) throws -> Applied
    ) async throws -> PullSummary {
        var summary = PullSummary()
        var cursor = try await context.cursor(name)
        while true {
            let response = try await context.transport.send(
                HTTPRequest("GET", path, query: [("limit", "500")] + (cursor.map { [("since", $0)] } ?? []))
            )
            let page = try ChangesPage(response.body)
            let counted = try await context.store.write { db -> PullSummary in
                var counted = PullSummary()
                for change in page.changes where RecipeID.isValid(change.id) {
                    let pending = try context.pendingOperations(entity: change.id, in: db)
                    switch try apply(change, pending, db) {
                    case .upserted: counted.upserted += 1
                    case .deleted: counted.deleted += 1
                    case .rebased: counted.rebased += 1
                    }
                }
                try context.saveCursor(page.cursor, name: name, in: db)
                return counted
            }
            summary = summary + counted
            guard page.hasMore, page.cursor != cursor else { break }
            cursor = page.cursor
        }
        return summary
    }

    /// A recipe change. An unsent upload means the local document is newer than anything
    /// the remote has: keep it (the upload will reach the remote or adopt its copy).
    static func applyRecipe(
        _ change: ChangesPage.Change,
        pending: [QueuedOperation],
        now: Date,
        in db: Database
    ) throws -> Applied {
        let local = try Recipe.find(change.id, in: db)
        if pending.contains(where: { $0.kind == "upload" }) { return .rebased }
        guard let entity = change.entity else {
            if try local?.mine == true || SavedSet.contains(change.id, in: db) { return .rebased }
            try db.execute(sql: "DELETE FROM recipes_recipes WHERE id = ?", arguments: [change.id])
            return .deleted
        }
        try Recipe.fromRemote(entity, keeping: local, now: now).save(in: db)
        return .upserted
    }

    /// A saved-set change: the remote's state, with unsent saves and unsaves applied on top.
    static func applySaved(
        _ change: ChangesPage.Change,
        pending: [QueuedOperation],
        now: Date,
        in db: Database
    ) throws -> Applied {
        var saved = change.entity != nil
        let rebased = pending.contains { $0.kind == "save" || $0.kind == "unsave" }
        for operation in pending {
            if operation.kind == "save" { saved = true }
            if operation.kind == "unsave" { saved = false }
        }
        if saved {
            try SavedSet.insert(change.id, at: savedAt(change.entity) ?? now, in: db)
        } else {
            try SavedSet.remove(change.id, in: db)
        }
        if rebased { return .rebased }
        return saved ? .upserted : .deleted
    }

    private static func savedAt(_ entity: Data?) -> Date? {
        guard let entity, let object = try? JSONSerialization.jsonObject(with: entity) as? [String: Any],
            let text = object["saved_at"] as? String
        else { return nil }
        return ISO8601DateFormatter.ferry.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
