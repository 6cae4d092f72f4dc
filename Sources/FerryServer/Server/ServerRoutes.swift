/// The composition of every endpoint the server answers.
enum ServerRoutes {
    static func router() -> APIRouter {
        var router = APIRouter()
        router.add(Route(.get, "/v1/health", access: .anyone) { _, _ in .json(["status": "ok"]) })
        router.add(contentsOf: AuthRoutes.routes)
        router.add(contentsOf: AdminRoutes.routes)
        router.add(contentsOf: RecipeRoutes.routes)
        router.add(contentsOf: SavedRecipeRoutes.routes)
        router.add(contentsOf: MovieRoutes.routes)
        router.add(contentsOf: People.routes)
        router.add(contentsOf: TMDBRoutes.routes)
        router.add(contentsOf: GroupRoutes.routes)
        router.add(contentsOf: RoundRoutes.routes)
        router.add(contentsOf: VotingRoutes.routes)
        router.add(contentsOf: AudioRoutes.routes)
        router.add(contentsOf: DocumentRoutes.routes)
        router.add(BatchRoute.route(inner: router))
        return router
    }
}
