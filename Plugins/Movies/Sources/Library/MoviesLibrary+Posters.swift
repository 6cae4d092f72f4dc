import Foundation
import SyncKernel

extension MoviesLibrary {
    /// The poster cache, with the runtime's connectivity and events.
    public func posters() -> PosterCache {
        let transport = runtime.transport(for: MoviesPlugin.name)
        return PosterCache(
            settings: plugin.settings,
            folder: plugin.context.directory.appendingPathComponent("posters"),
            store: store,
            clock: runtime.clock,
            events: runtime.events,
            connectivity: runtime.connectivity,
            baseURL: {
                guard let transport else { throw FerryError(.plugin, "the movies plugin has no transport") }
                return try await transport.baseURL()
            }
        )
    }
}
