import AudioPlugin
import AuthPlugin
import FamilyPlugin
import MoviesPlugin
import RecipesPlugin
import SyncKernel

/// The composition root: the one list of plugins this build of ferry ships.
public enum Composition {
    public static let plugins: [any SyncPlugin.Type] = [
        AuthPlugin.self,
        RecipesPlugin.self,
        MoviesPlugin.self,
        FamilyPlugin.self,
        AudioPlugin.self,
    ]
}
