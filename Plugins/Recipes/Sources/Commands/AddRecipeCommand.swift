import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry recipes add FILE.json [--photo IMAGE]`.
struct AddRecipeCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a recipe you wrote (a JSON file with a \"title\"); it is saved and uploaded in the background.",
        discussion: Examples.discussion(
            "The file's \"id\" is kept when present, otherwise a new id is chosen. The photo (PNG, JPEG, GIF, WebP or HEIC, up to 8 MiB) is stored beside the recipe and uploaded with it.",
            examples: ["ferry recipes add soup.json", "ferry recipes add soup.json --photo soup.jpg"]
        )
    )

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: ArgumentHelp(
            "The recipe as a JSON object, e.g. {\"title\": \"Soup\", \"ingredients\": [...], \"steps\": [...]}.",
            valueName: "path"
        ),
        completion: .file(extensions: ["json"])
    )
    var file: String

    @Option(
        help: ArgumentHelp("A photo of the dish.", valueName: "path"),
        completion: .file(extensions: ["png", "jpg", "jpeg", "gif", "webp", "heic"])
    )
    var photo: String?

    func run(in runtime: FerryRuntime) async throws {
        let recipe = try await RecipeBook(runtime: runtime).add(documentAt: file, photoAt: photo)
        if global.json {
            try Output(json: true).printJSON(["id": recipe.id, "title": recipe.title, "sync": "queued"])
        } else {
            print("added \(recipe.id) (\(recipe.title)) and saved it; `ferry run` uploads it in the background")
        }
    }
}
