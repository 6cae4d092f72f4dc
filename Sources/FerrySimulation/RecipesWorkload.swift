import Foundation
import RecipesPlugin
import SyncKernel
import SyncKernelTesting

/// Saves, unsaves and toggles of the demo recipes, from every device.
///
/// Checks: every device's saved set is the server's; a recipe only one device wrote is
/// saved on the server exactly when that device's last acknowledged write left it saved
/// (a write acknowledged locally is never lost). A recipe several devices wrote ends as
/// one of their last writes, which convergence covers.
final class RecipesWorkload: SimulationWorkload, @unchecked Sendable {
    let name = "recipes"
    static let recipes = ["demo-shakshuka", "demo-pancakes", "demo-dal"]
    /// The last acknowledged saved state of each recipe, per device.
    private var lastWrite: [String: [Int: Bool]] = [:]
    /// Recipes written before a restore of the server: whichever write is on it now, the
    /// restore's or a later one, none is lost.
    private var restoredAway: Set<String> = []

    func draw(device: Int, using random: inout SeededRandom) -> String {
        let verb = ["save", "unsave", "toggle"].randomElement(using: &random)!
        return "\(verb) \(Self.recipes.randomElement(using: &random)!)"
    }

    func perform(_ action: String, on device: SimulatedDevice, in world: SimulationWorld) async throws {
        let words = action.split(separator: " ").map(String.init)
        guard words.count == 2 else { throw FerryError(.usage, "unknown recipes action \(action)") }
        let book = try RecipeBook(runtime: device.runtime)
        let change: SaveChange
        switch words[0] {
        case "save": change = try await book.save(words[1])
        case "unsave": change = try await book.unsave(words[1])
        default: change = try await book.toggle(words[1])
        }
        lastWrite[words[1], default: [:]][device.index] = change.saved
    }

    /// After a restore, the recipes written before it are no longer followed: every
    /// device must still show the server's saved set.
    var followsRestores: Bool { true }

    func serverRestored() { restoredAway.formUnion(lastWrite.keys) }

    func check(_ world: SimulationWorld) async throws -> [SimulationViolation] {
        let server = try await serverSaved(world)
        var violations: [SimulationViolation] = []
        for device in world.devices {
            let local = Set(try await RecipeBook(runtime: device.runtime).list(savedOnly: true).recipes.map(\.id))
            if local != server {
                violations.append(
                    SimulationViolation("diverged", "device \(device.index) shows saved recipes \(local.sorted()), the server \(server.sorted())")
                )
            }
        }
        for (recipe, writers) in lastWrite where writers.count == 1 && !restoredAway.contains(recipe) {
            let (device, saved) = writers.first!
            if server.contains(recipe) != saved {
                violations.append(
                    SimulationViolation("lost-write", "device \(device) last \(saved ? "saved" : "unsaved") \(recipe) and no other device touched it, but the server has it \(saved ? "unsaved" : "saved")")
                )
            }
        }
        return violations
    }

    /// The demo user's saved set on the server.
    private func serverSaved(_ world: SimulationWorld) async throws -> Set<String> {
        let saved = try await world.json("/v1/saved-recipes", as: world.devices[0])["saved_recipes"] as? [[String: Any]]
        return Set((saved ?? []).compactMap { $0["recipe_id"] as? String })
    }
}
