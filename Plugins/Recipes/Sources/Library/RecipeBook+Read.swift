import Foundation
import GRDB
import SyncKernel

extension RecipeBook {
    /// The cached recipes (only saved ones with `savedOnly`), with their saved state and
    /// unsent work. Answers from the local store only, online or not.
    public func list(savedOnly: Bool = false) async throws -> RecipeListing {
        let folder = plugin.photos
        return try await runtime.store.read { db in
            let saved = try SavedSet.all(in: db)
            let work = try Self.work(in: db)
            var items: [RecipeListing.Item] = []
            var seen: Set<String> = []
            for recipe in try Recipe.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM recipes_recipes ORDER BY title COLLATE NOCASE, id")
            ) {
                seen.insert(recipe.id)
                let isSaved = saved[recipe.id] != nil
                if savedOnly && !isSaved { continue }
                items.append(
                    RecipeListing.Item(
                        id: recipe.id,
                        title: recipe.title,
                        saved: isSaved,
                        mine: recipe.mine,
                        onServer: recipe.version != nil,
                        pending: work[recipe.id]?.pending ?? [],
                        failed: work[recipe.id]?.failed ?? [],
                        photo: recipe.photoFile.map { folder.url(for: $0).path }
                    )
                )
            }
            for id in saved.keys.sorted() where !seen.contains(id) {
                items.append(
                    RecipeListing.Item(
                        id: id,
                        title: nil,
                        saved: true,
                        mine: false,
                        onServer: true,
                        pending: work[id]?.pending ?? [],
                        failed: work[id]?.failed ?? [],
                        photo: nil
                    )
                )
            }
            return RecipeListing(recipes: items, lastSyncedAt: try PluginState.lastSync(RecipesPlugin.name, in: db))
        }
    }

    /// The list under a cache policy: `cache_only` (what `list` does) never asks the
    /// network; `cache_then_network` (`list --refresh`) answers from the cache, pulls when
    /// a connection is there, and answers again. Offline, the cached answer carries why.
    /// Nil when nothing is cached and the server could not be asked.
    public func read(savedOnly: Bool = false, policy: CachePolicy) async throws -> CachedRead<RecipeListing>? {
        let book = self
        return try await CachedReader(runtime: runtime).read(
            policy,
            key: Self.listKey(savedOnly),
            cache: { try await book.cachedList(savedOnly: savedOnly) },
            refresh: { try await book.refresh() }
        )
    }

    /// The list as `read` gives it, then again each time it changes: after a save here,
    /// a `ferry recipes` command in another process, or a pull by a running runner. An
    /// empty cache is an empty list here, watched until something arrives.
    public func watch(savedOnly: Bool = false, policy: CachePolicy) -> AsyncThrowingStream<CachedRead<RecipeListing>, any Error> {
        let book = self
        return CachedReader(runtime: runtime).watch(
            policy,
            key: Self.listKey(savedOnly) + ".watched",
            cache: {
                let listing = try await book.list(savedOnly: savedOnly)
                return CacheSnapshot(value: listing, hasPendingWrites: listing.recipes.contains { !$0.pending.isEmpty })
            },
            refresh: { try await book.refresh() }
        )
    }

    private static func listKey(_ savedOnly: Bool) -> String {
        "recipes.list.\(savedOnly ? "saved" : "all")"
    }

    /// The list as the cache holds it; nil when nothing was ever cached.
    private func cachedList(savedOnly: Bool) async throws -> CacheSnapshot<RecipeListing>? {
        let listing = try await list(savedOnly: savedOnly)
        guard !listing.recipes.isEmpty || listing.lastSyncedAt != nil else { return nil }
        return CacheSnapshot(value: listing, hasPendingWrites: listing.recipes.contains { !$0.pending.isEmpty })
    }

    /// One recipe from the cache; a recipe not cached is fetched from the server.
    public func show(_ id: String) async throws -> RecipeDetail {
        try Self.check(id)
        if let detail = try await detail(id) { return detail }
        try await fetch(id)
        guard let detail = try await detail(id) else {
            throw FerryError(.notFound, "there is no recipe \(id); `ferry recipes list` shows the recipes known here")
        }
        return detail
    }

    private func detail(_ id: String) async throws -> RecipeDetail? {
        let folder = plugin.photos
        return try await runtime.store.read { db in
            guard let recipe = try Recipe.find(id, in: db) else { return nil }
            let work = try Self.work(in: db, entity: id)[id]
            return RecipeDetail(
                recipe: recipe,
                saved: try SavedSet.contains(id, in: db),
                pending: work?.pending ?? [],
                failed: work?.failed ?? [],
                photoPath: recipe.photoFile.map { folder.url(for: $0).path }
            )
        }
    }

    /// Undelivered and failed operation kinds per recipe.
    static func work(in db: Database, entity: String? = nil) throws -> [String: (pending: [String], failed: [String])] {
        let operations =
            try entity.map { try Outbox.operations(plugin: RecipesPlugin.name, entity: $0, in: db) }
            ?? Outbox.operations(plugin: RecipesPlugin.name, in: db)
        var result: [String: (pending: [String], failed: [String])] = [:]
        for operation in operations {
            let entity = operation.entity
            let kind = operation.kind
            if operation.state == .dead {
                result[entity, default: ([], [])].failed.append(kind)
            } else {
                result[entity, default: ([], [])].pending.append(kind)
            }
        }
        return result
    }
}
