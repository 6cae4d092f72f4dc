import Foundation
import GRDB
import Logging
import SyncKernel

/// Recipes: a saved set that answers at once and syncs in the background, recipes the
/// user creates (uploaded with their photo), photos kept beside saved recipes, and a
/// one-time import from an older layout.
///
/// Operations, all on the recipe's id, so that they go out in order:
/// - `upload`: `PUT /v1/recipes/{id}` create-only, then its photo; `first_write_wins`
///   (a recipe that already exists is adopted as it is on the remote).
/// - `save` / `unsave`: `PUT` / `DELETE /v1/saved-recipes/{id}`; each cancels the other
///   while unsent, so rapid toggling sends at most one operation.
///
/// The pull follows `/v1/recipes/changes` and `/v1/saved-recipes/changes` with durable
/// cursors, keeps rows with pending operations as the user left them, and downloads the
/// photos of saved recipes.
public struct RecipesPlugin: SyncPlugin {
    public typealias Settings = RecipesSettings

    public static let name = "recipes"
    /// The cursor of the saved recipes' feed: none yet means the saved set is not known.
    static let savedFeed = "saved"
    public static let summary = "Recipes: instant save and unsave, your own recipes and their photos"
    public static let operations: [String: OperationPolicy] = [
        "upload": OperationPolicy(coalesce: .init(mode: .replace), conflict: .firstWriteWins),
        "save": OperationPolicy(coalesce: .init(cancels: ["unsave"])),
        "unsave": OperationPolicy(coalesce: .init(cancels: ["save"])),
    ]
    public static let migrations = RecipesMigrations.all

    public let settings: RecipesSettings
    /// Where the plugin keeps its files.
    public let photos: PhotoStore
    let logger: Logger
    let clock: any KernelClock

    public init(settings: RecipesSettings, context: PluginContext) {
        self.settings = settings
        self.photos = PhotoStore(pluginDirectory: context.directory)
        self.logger = context.logger
        self.clock = context.clock
    }

    public func send(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        guard RecipeID.isValid(operation.entity) else {
            throw FerryError(
                .rejected,
                "recipes \(operation.kind): \(operation.entity.prefix(64)) is not a valid recipe id"
            )
        }
        switch operation.kind {
        case "upload": return try await upload(operation, context: context)
        case "save": return try await save(operation, context: context)
        case "unsave": return try await unsave(operation, context: context)
        default: throw FerryError(.plugin, "recipes has no operation \(operation.kind)")
        }
    }

    /// Shows an unsent save or unsave on top of the remote's saved set again. An unsent
    /// upload needs nothing: a pull keeps the local recipe while its upload is pending.
    public func reapply(_ operation: QueuedOperation, in db: Database) throws {
        switch operation.kind {
        case "save": try SavedSet.insert(operation.entity, at: operation.createdAt, in: db)
        case "unsave": try SavedSet.remove(operation.entity, in: db)
        default: break
        }
    }

    /// Another account signed in: its recipes and saves are fetched again. The record of a
    /// legacy import stays (it is this device's, not an account's).
    public func forgetAccountData(in db: Database) throws {
        try db.execute(sql: "DELETE FROM recipes_saved; DELETE FROM recipes_recipes")
    }

    public func adoptRemote(_ conflict: ConflictReport, in db: Database) throws {
        // A recipe conflicts only on a create the remote already has; a deletion keeps ours.
        guard let remote = conflict.remote, !conflict.remoteDeleted else { return }
        let local = try Recipe.find(conflict.entity, in: db)
        try Recipe.fromRemote(remote, keeping: local, now: clock.now()).save(in: db)
    }
}
