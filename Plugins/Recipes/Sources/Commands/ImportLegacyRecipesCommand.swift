import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry recipes import-legacy DIR`.
struct ImportLegacyRecipesCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-legacy",
        abstract: "Import saved recipes from an older layout, once (running it again changes nothing).",
        discussion:
            "DIR holds saved_recipe_ids.json (a JSON list of ids), optionally created_recipe_ids.json, and recipes/<id>.json with an optional photo recipes/<id>.jpg|png."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The folder of the older layout.")
    var folder: String

    func run(in runtime: FerryRuntime) async throws {
        let report = try await RecipeBook(runtime: runtime).importLegacy(from: folder)
        if global.json {
            try Output(json: true).printJSON(report)
            return
        }
        print(
            "imported \(report.imported) saved recipe\(report.imported == 1 ? "" : "s") (\(report.documents) documents, \(report.photos) photos, \(report.savesQueued) saves to sync); \(report.alreadyImported) already imported before"
        )
        for problem in report.problems { Output.warn("recipes: \(problem)") }
    }
}
