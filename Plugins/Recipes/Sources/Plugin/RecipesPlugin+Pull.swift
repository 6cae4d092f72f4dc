import Foundation
import GRDB
import SyncKernel

extension RecipesPlugin {
    /// Follows the recipes feed and the saved-set feed, then fetches the photos of saved
    /// recipes and removes photos nobody needs any more.
    ///
    /// A pull never undoes a local write: a row whose entity still has unsent operations
    /// takes the remote state as its base and gets those operations applied again.
    public func pull(_ context: PluginContext) async throws -> PullSummary {
        let clock = context.clock
        var summary = try await context.follow("/v1/recipes/changes", cursor: "recipes") { change, db in
            guard RecipeID.isValid(change.id) else { return .skipped }
            return try Self.applyRecipe(change, now: clock.now(), in: db)
        } sweep: { live, db in
            // The user's own recipes and saved ones stay, as a deletion keeps them.
            let working = try Outbox.entitiesWithWork(plugin: Self.name, in: db)
            let saved = try SavedSet.all(in: db)
            let gone = try String.fetchAll(
                db.cachedStatement(sql: "SELECT id FROM recipes_recipes WHERE mine = 0")
            ).filter {
                !live.contains($0) && !working.contains($0) && saved[$0] == nil
            }
            for id in gone { try db.cachedStatement(sql: "DELETE FROM recipes_recipes WHERE id = ?")
                .execute(arguments: [id]) }
            return gone.count
        }
        summary =
            summary
            + (try await context.follow("/v1/saved-recipes/changes", cursor: Self.savedFeed) { change, db in
                guard RecipeID.isValid(change.id) else { return .skipped }
                return try Self.applySaved(change, now: clock.now(), in: db)
            } sweep: { live, db in
                let working = try Outbox.entitiesWithWork(plugin: Self.name, in: db)
                let gone = try SavedSet.all(in: db).keys.filter { !live.contains($0) && !working.contains($0) }
                for id in gone { try SavedSet.remove(id, in: db) }
                return gone.count
            })
        if settings.downloadPhotos { try await downloadPhotos(context) }
        try await sweepPhotos(context)
        return summary
    }

    /// A recipe change. An unsent upload means the local document is newer than anything
    /// the remote has: keep it (the upload will reach the remote or adopt its copy).
    static func applyRecipe(_ change: FeedChange, now: Date, in db: Database) throws -> FeedOutcome {
        let local = try Recipe.find(change.id, in: db)
        if change.pending.contains(where: { $0.kind == "upload" }) { return .rebased }
        guard let entity = change.entity else {
            if try local?.mine == true || SavedSet.contains(change.id, in: db) { return .rebased }
            try db.cachedStatement(sql: "DELETE FROM recipes_recipes WHERE id = ?").execute(arguments: [change.id])
            return .deleted
        }
        try Recipe.fromRemote(entity, keeping: local, now: now).save(in: db)
        return .upserted
    }

    /// A saved-set change: the remote's state (the kernel puts unsent saves and unsaves on
    /// top again, through `reapply`).
    static func applySaved(_ change: FeedChange, now: Date, in db: Database) throws -> FeedOutcome {
        guard change.entity != nil else {
            try SavedSet.remove(change.id, in: db)
            return .deleted
        }
        try SavedSet.insert(change.id, at: savedAt(change.entity) ?? now, in: db)
        return .upserted
    }

    private static func savedAt(_ entity: Data?) -> Date? {
        guard let entity, let object = try? JSONSerialization.jsonObject(with: entity) as? [String: Any],
            let text = object["saved_at"] as? String
        else { return nil }
        return ISO8601DateFormatter.ferry.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
