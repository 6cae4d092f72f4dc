import ArgumentParser
import SyncKernel
import SyncKernelCLI

/// `ferry recipes ...`: the recipes plugin's commands.
public struct RecipesCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "recipes",
        abstract: "Recipes: save and unsave at once, add your own, import an older layout.",
        discussion:
            "Reads answer from the local cache; writes are stored locally at once and sent by `ferry run` in the background.",
        subcommands: [
            ListRecipesCommand.self, ShowRecipeCommand.self, AddRecipeCommand.self, SaveRecipeCommand.self,
            UnsaveRecipeCommand.self, ToggleRecipeCommand.self, ImportLegacyRecipesCommand.self,
        ]
    )

    public init() {}
}
