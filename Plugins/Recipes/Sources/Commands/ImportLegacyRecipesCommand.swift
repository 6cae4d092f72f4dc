import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry recipes import-legacy DIR`.
struct ImportLegacyRecipesCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-legacy",
        abstract: "Import saved recipes from an older layout, once (running it again changes nothing).",
        discussion: Examples.discussion(
            "The folder holds saved_recipe_ids.json (a JSON list of ids), optionally created_recipe_ids.json, and recipes/<id>.json with an optional photo recipes/<id>.jpg|png. On a terminal, standard error shows how many were imported so far.",
            examples: ["ferry recipes import-legacy old-recipes", "ferry recipes import-legacy ~/Backups/recipes --json"]
        )
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The folder of the older layout.", valueName: "folder"), completion: .directory)
    var folder: String

    func run(in runtime: FerryRuntime) async throws {
        let line = ProgressLine()
        let report: LegacyImportReport
        do {
            defer { line.clear() }
            report = try await RecipeBook(runtime: runtime).importLegacy(from: folder) { done, total in
                // About a hundred redraws at most, and the last one.
                guard done == total || done % max(1, total / 100) == 0 else { return }
                line.draw(ProgressLine.count("imported", done, of: total))
            }
        }
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
