import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry recipes unsave ID`.
struct UnsaveRecipeCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsave",
        abstract: "Unsave a recipe: answers at once, synced in the background; its photo goes unless you created it."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The recipe's id.")
    var id: String

    func run(in runtime: FerryRuntime) async throws {
        try SaveChangePrinter.print(try await RecipeBook(runtime: runtime).unsave(id), json: global.json)
    }
}
