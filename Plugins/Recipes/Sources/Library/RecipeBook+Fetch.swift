import Foundation
import GRDB
import SyncKernel

extension RecipeBook {
    /// Fetches one recipe the cache does not hold and caches it.
    /// Fails with `not_found` when the remote has no such recipe, with
    /// `requires_connection` when it cannot be reached.
    @discardableResult
    public func fetch(_ id: String) async throws -> Recipe {
        try Self.check(id)
        guard let transport = runtime.transport(for: RecipesPlugin.name) else {
            throw FerryError(
                .configuration,
                "the recipes plugin has no transport; enable it in \(runtime.configuration.file)"
            )
        }
        let state = await runtime.connectivity.current()
        guard state.reachable else {
            throw FerryError(
                .requiresConnection,
                "recipe \(id) is not cached here and there is no connection (\(state.summary)); `ferry recipes list` shows the cached recipes, `ferry run --once` refreshes them when online"
            )
        }
        let response: HTTPResponse
        do {
            response = try await transport.send(HTTPRequest("GET", "/v1/recipes/\(id)"))
        } catch let failure as RemoteFailure where failure.status == 404 {
            throw FerryError(
                .notFound,
                "there is no recipe \(id); `ferry recipes list` shows the recipes known here",
                underlying: failure
            )
        } catch let failure as RemoteFailure where failure.status == 401 {
            throw FerryError(
                .needsLogin,
                "recipe \(id) is not cached here and the server refused the session; run `ferry auth login`",
                underlying: failure
            )
        } catch let failure as TransportFailure {
            throw FerryError(
                .requiresConnection,
                "recipe \(id) is not cached here and the server could not be reached (\(failure.reason)); `ferry recipes list` shows the cached recipes, `ferry run --once` refreshes them when online",
                underlying: failure
            )
        }
        let now = runtime.clock.now()
        return try await runtime.store.write { db in
            if let local = try Recipe.find(id, in: db) { return local }
            let recipe = try Recipe.fromRemote(response.body, keeping: nil, now: now)
            guard recipe.id == id else {
                throw FerryError(.rejected, "the server answered recipe \(recipe.id.prefix(64)) when asked for \(id)")
            }
            try recipe.save(in: db)
            return recipe
        }
    }

    /// Pulls now: brings the cache up to date, as `ferry run` does in the background.
    @discardableResult
    public func refresh() async throws -> PullSummary {
        try await runtime.pull(RecipesPlugin.name)
    }
}
