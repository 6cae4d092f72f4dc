import AudioPlugin
import AuthPlugin
import FamilyPlugin
import MoviesPlugin
import RecipesPlugin
import Synchronization
import SyncKernel

/// The composition root: which plugins this `ferry` executable has.
public enum Composition {
    /// The plugins Ferry ships.
    public static let shipped: [any SyncPlugin.Type] = [
        AuthPlugin.self,
        RecipesPlugin.self,
        MoviesPlugin.self,
        FamilyPlugin.self,
        AudioPlugin.self,
    ]

    private static let chosen = Mutex<[any SyncPlugin.Type]>(shipped)

    /// The plugins of this executable: the shipped ones, unless `FerryMain.run(plugins:)`
    /// was given others.
    static var plugins: [any SyncPlugin.Type] { chosen.withLock { $0 } }

    /// Makes `plugins` this executable's, before the command line is parsed.
    static func use(_ plugins: [any SyncPlugin.Type]) throws {
        var seen: Set<String> = []
        for plugin in plugins where !seen.insert(plugin.name).inserted {
            throw FerryError(.plugin, "two plugins are named \(plugin.name); each plugin needs a name of its own")
        }
        chosen.withLock { $0 = plugins }
    }
}
