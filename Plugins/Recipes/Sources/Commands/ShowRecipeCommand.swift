import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry recipes show ID [--json]`.
struct ShowRecipeCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one recipe: from the local cache, else fetched from the server.",
        discussion: Examples.discussion(examples: ["ferry recipes show demo-shakshuka", "ferry recipes show demo-dal --json"])
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The recipe's id (see `ferry recipes list`).", valueName: "id"))
    var id: String

    func run(in runtime: FerryRuntime) async throws {
        let detail = try await RecipeBook(runtime: runtime).show(id)
        if global.json { return try global.output.printJSON(RecipeView(detail)) }
        let fields = detail.recipe.fields
        var lines = [Output.bold(detail.recipe.title), "id: \(detail.recipe.id)"]
        var facts: [String] = []
        if let servings = fields.servings { facts.append("serves \(servings)") }
        if let minutes = fields.minutes { facts.append("\(minutes) min") }
        if !facts.isEmpty { lines.append(facts.joined(separator: ", ")) }
        lines.append("saved: \(detail.saved ? "yes" : "no")\(detail.recipe.mine ? " (you created it)" : "")")
        if !fields.ingredients.isEmpty {
            lines.append("ingredients:")
            lines += fields.ingredients.map { "  - \($0)" }
        }
        if !fields.steps.isEmpty {
            lines.append("steps:")
            lines += fields.steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }
        }
        if let photo = detail.photoPath { lines.append("photo: \(photo)") }
        if !detail.pending.isEmpty { lines.append("waiting to sync: \(detail.pending.joined(separator: ", "))") }
        if !detail.failed.isEmpty {
            lines.append("refused by the server: \(detail.failed.joined(separator: ", ")) (see `ferry queue list`)")
        }
        print(lines.joined(separator: "\n"))
    }
}
