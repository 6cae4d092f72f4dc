import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry recipes unsave ID`.
struct UnsaveRecipeCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsave",
        abstract: "Unsave a recipe: answers at once, synced in the background; its photo goes unless you created it.",
        discussion: Examples.discussion(examples: ["ferry recipes unsave demo-dal"])
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The recipe's id.", valueName: "id"))
    var id: String

    func run(in runtime: FerryRuntime) async throws {
        try SaveChangePrinter.print(try await RecipeBook(runtime: runtime).unsave(id), json: global.json)
    }
}
