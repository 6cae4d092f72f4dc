import Foundation
import SyncKernelCLI

/// One recipe as `ferry recipes show --json` prints it: the recipe's document as the JSON
/// it is, beside what only this device knows.
struct RecipeView: Encodable {
    let id: String
    /// The document as the server keeps it (title, ingredients, steps, ...).
    let recipe: JSONValue
    let saved: Bool
    /// Whether you created it.
    let mine: Bool
    let onServer: Bool
    /// Operations on it not yet sent, and refused ones.
    let pending, failed: [String]
    let photoPath: String?

    init(_ detail: RecipeDetail) {
        id = detail.recipe.id
        recipe = JSONValue(parsing: detail.recipe.document)
        saved = detail.saved
        mine = detail.recipe.mine
        onServer = detail.recipe.version != nil
        pending = detail.pending
        failed = detail.failed
        photoPath = detail.photoPath
    }
}
