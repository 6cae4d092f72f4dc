import ArgumentParser
import Foundation
import SyncKernel

/// `ferry recipes save ID`.
struct SaveRecipeCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "save", abstract: "Save a recipe: answers at once, synced in the background.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The recipe's id.")
    var id: String

    func run(in runtime: FerryRuntime) async throws {
        try SaveChangePrinter.print(try await RecipeBook(runtime: runtime).save(id), json: global.json)
    }
}

/// `ferry recipes unsave ID`.
struct UnsaveRecipeCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsave",
        abstract: "Unsave a recipe: answers at once, synced in the background; its photo goes unless you created it.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The recipe's id.")
    var id: String

    func run(in runtime: FerryRuntime) async throws {
        try SaveChangePrinter.print(try await RecipeBook(runtime: runtime).unsave(id), json: global.json)
    }
}

/// `ferry recipes toggle ID`.
struct ToggleRecipeCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "toggle",
        abstract: "Save a recipe if it is not saved, unsave it if it is.",
        discussion: "Rapid toggles send at most one operation: an unsent save followed by an unsave sends nothing.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The recipe's id.")
    var id: String

    func run(in runtime: FerryRuntime) async throws {
        try SaveChangePrinter.print(try await RecipeBook(runtime: runtime).toggle(id), json: global.json)
    }
}

/// How save, unsave and toggle report.
enum SaveChangePrinter {
    static func print(_ change: SaveChange, json: Bool) throws {
        if json {
            try Output(json: true).printJSON(change)
            return
        }
        let state = change.saved ? "saved" : "not saved"
        let line: String
        switch change.sync {
        case "unchanged": line = "\(change.id) was already \(state)"
        case "cancelled": line = "\(change.id) is \(state) (this undid an unsent change: nothing to send)"
        default: line = "\(change.id) is \(state) (synced in the background by `ferry run`)"
        }
        Swift.print(line)
    }
}
