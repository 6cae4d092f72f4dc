import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry recipes save ID`.
struct SaveRecipeCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "save",
        abstract: "Save a recipe: answers at once, synced in the background.",
        discussion: Examples.discussion(examples: ["ferry recipes save demo-pancakes", "ferry recipes save demo-pancakes --json"])
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The recipe's id.", valueName: "id"))
    var id: String

    func run(in runtime: FerryRuntime) async throws {
        try SaveChangePrinter.print(try await RecipeBook(runtime: runtime).save(id), json: global.json)
    }
}
