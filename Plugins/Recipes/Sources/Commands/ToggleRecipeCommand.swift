import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry recipes toggle ID`.
struct ToggleRecipeCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "toggle",
        abstract: "Save a recipe if it is not saved, unsave it if it is.",
        discussion: Examples.discussion(
            "Rapid toggles send at most one operation: an unsent save followed by an unsave sends nothing.",
            examples: ["ferry recipes toggle demo-shakshuka"]
        )
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The recipe's id.", valueName: "id"))
    var id: String

    func run(in runtime: FerryRuntime) async throws {
        try SaveChangePrinter.print(try await RecipeBook(runtime: runtime).toggle(id), json: global.json)
    }
}
