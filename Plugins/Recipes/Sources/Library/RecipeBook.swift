import Foundation
import GRDB
import SyncKernel

/// The recipes plugin's actions on an opened runtime, for the CLI and for apps.
///
/// Every write is local first: one SQLite transaction holds the change and the
/// operation that carries it, and the call returns when it has committed.
///
/// ```swift
/// let book = try RecipeBook(runtime: runtime)
/// try await book.toggle("demo-pancakes")      // answers at once; syncs in the background
/// let saved = try await book.list(savedOnly: true)
/// ```
public struct RecipeBook: Sendable {
    public let runtime: FerryRuntime
    public let plugin: RecipesPlugin

    public init(runtime: FerryRuntime) throws {
        self.runtime = runtime
        self.plugin = try runtime.plugin(RecipesPlugin.self)
    }

    /// Saves `id`.
    @discardableResult
    public func save(_ id: String) async throws -> SaveChange {
        try await setSaved(id, to: true)
    }

    /// Unsaves `id`; its photo goes unless the user created the recipe.
    @discardableResult
    public func unsave(_ id: String) async throws -> SaveChange {
        try await setSaved(id, to: false)
    }

    /// Saves `id` when it is not saved, unsaves it when it is.
    @discardableResult
    public func toggle(_ id: String) async throws -> SaveChange {
        try await setSaved(id, to: nil)
    }

    /// Sets the saved state (`nil` flips it). A recipe to save that is not cached is
    /// fetched first (the only case that needs the network).
    private func setSaved(_ id: String, to wanted: Bool?) async throws -> SaveChange {
        try Self.check(id)
        do {
            return try await writeSaved(id, to: wanted)
        } catch is NotCached {
            try await fetch(id)
            return try await writeSaved(id, to: wanted)
        }
    }

    /// The local write: the saved set and the operation in one transaction, decided from
    /// the saved state read inside it.
    private func writeSaved(_ id: String, to wanted: Bool?) async throws -> SaveChange {
        let now = runtime.clock.now()
        let committed = try await runtime.commit { db, queue -> (saved: Bool, changed: Bool, removedPhoto: String?) in
            let current = try SavedSet.contains(id, in: db)
            let target = wanted ?? !current
            // Before the saved set's first pull, it is not known, only empty: an explicit save
            // or unsave goes to the remote even where the set already agrees, and a later
            // opposite one replaces it rather than cancelling it. A toggle goes by the local
            // set: two of them cancel out.
            let known = try wanted == nil || SavedSet.isKnown(in: db)
            if target == current, known { return (current, false, nil) }
            var removedPhoto: String?
            if target {
                guard try Recipe.find(id, in: db) != nil else { throw NotCached() }
                try SavedSet.insert(id, at: now, in: db)
            } else {
                try SavedSet.remove(id, in: db)
                if var recipe = try Recipe.find(id, in: db), !recipe.mine, let file = recipe.photoFile {
                    recipe.photoFile = nil
                    recipe.photoSHA256 = nil
                    try recipe.save(in: db)
                    removedPhoto = file
                }
            }
            var operation = try NewOperation(
                plugin: RecipesPlugin.name, kind: target ? "save" : "unsave", entity: id, payload: [String: String]()
            )
            operation.remoteKnown = known
            queue.enqueue(operation)
            return (target, true, removedPhoto)
        }
        plugin.photos.remove(committed.value.removedPhoto)
        return SaveChange(id: id, saved: committed.value.saved, result: committed.results.first)
    }

    /// Thrown inside a transaction when a recipe to save is not cached.
    struct NotCached: Error {}

    static func check(_ id: String) throws {
        guard RecipeID.isValid(id) else {
            throw FerryError(
                .usage,
                "\(id.prefix(64)) is not a recipe id; ids are 1-128 letters, digits, '.', '_' or '-' (see `ferry recipes list`)"
            )
        }
    }
}
