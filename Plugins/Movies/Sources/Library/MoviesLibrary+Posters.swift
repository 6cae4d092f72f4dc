import Foundation
import SyncKernel

extension MoviesLibrary {
    /// The poster cache, with the runtime's connectivity and events.
    public func posters() -> PosterCache {
        PosterCache(
            settings: plugin.settings,
            folder: plugin.context.directory.appendingPathComponent("posters"),
            store: store,
            clock: runtime.clock,
            events: runtime.events,
            connectivity: runtime.connectivity,
            transport: plugin.context.transport
        )
    }
}
