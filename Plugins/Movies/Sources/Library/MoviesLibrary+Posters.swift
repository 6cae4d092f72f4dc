import Foundation
import SyncKernel

extension MoviesLibrary {
    /// The poster cache, with the runtime's connectivity and events.
    public func posters() -> PosterCache {
        plugin.posters(runtime.context(for: MoviesPlugin.name) ?? plugin.context)
    }
}
