import HTTPTypes
import Hummingbird

/// The composition of every endpoint the server answers, on Hummingbird's router.
enum ServerRoutes {
    /// Every route, grouped per domain.
    static var all: [Route] {
        [Route(.get, "/v1/health", access: .anyone) { _, _ in healthy }]
            + AuthRoutes.routes + AdminRoutes.routes + RecipeRoutes.routes + SavedRecipeRoutes.routes
            + MovieRoutes.routes + People.routes + TMDBRoutes.routes
            + (GroupRoutes.routes + RoundRoutes.routes + VotingRoutes.routes).map { $0.actingAsMember() }
            + AudioRoutes.routes + DocumentRoutes.routes + [BatchRoute.route, MetricsRoute.route]
    }

    /// The answer of `GET /v1/health`, encoded once.
    static let healthy = APIResponse.json(["status": "ok"])

    /// The methods a path can be asked for; one a path does not answer is a `405` (another
    /// method, unknown to the router, is a `404`).
    static let methods: [HTTPRequest.Method] = [
        .get, .head, .post, .put, .patch, .delete, .options, .trace, HTTPRequest.Method("QUERY")!,
    ]

    /// The router: log, metrics, statistics, faults, error shape and path check around every request,
    /// the body cap of its kind around each route; `HEAD` beside every `GET`, and a `405`
    /// with `Allow` for every other method on a routed path.
    static func router(_ environment: ServerEnvironment) -> Router<FerryRequestContext> {
        let router = Router(context: FerryRequestContext.self)
        router.add(middleware: RequestLogMiddleware(logger: environment.logger))
        router.add(middleware: MetricsMiddleware(metrics: environment.metrics))
        router.add(middleware: StatsMiddleware(stats: environment.stats))
        router.add(middleware: FaultMiddleware(faults: environment.faults))
        router.add(middleware: ErrorMiddleware(environment: environment))
        router.add(middleware: PathCheckMiddleware())
        let configuration = environment.configuration
        let json = router.group().add(middleware: BodyLimitMiddleware(limit: configuration.maxBodyBytes))
        let upload = router.group().add(middleware: BodyLimitMiddleware(limit: configuration.maxUploadBytes))
        let dispatcher = Dispatcher(environment: environment)
        let routes = all
        for route in routes {
            let group = route.body == .upload ? upload : json
            let endpoint = RouteEndpoint(route: route, dispatcher: dispatcher)
            group.on(RouterPath(route.template), method: route.method, responder: endpoint)
            if route.method == .get { group.on(RouterPath(route.template), method: .head, responder: endpoint) }
        }
        for (template, routed) in Dictionary(grouping: routes, by: \.template) {
            let allowed = Set(routed.flatMap { $0.method == .get ? [.get, .head] : [$0.method] })
            for method in methods where !allowed.contains(method) {
                router.on(RouterPath(template), method: method, responder: MethodNotAllowed(allowed: allowed))
            }
        }
        return router
    }
}

/// Answers a method that a routed path does not have: `405` with `Allow` listing the ones it has.
struct MethodNotAllowed: HTTPResponder {
    let allowed: Set<HTTPRequest.Method>

    func respond(to request: Request, context: FerryRequestContext) async throws -> Response {
        let names = allowed.map(\.rawValue).sorted().joined(separator: ", ")
        throw APIError(
            .methodNotAllowed,
            "method_not_allowed",
            "\(request.method.rawValue) is not allowed here; use \(names).",
            headers: ["Allow": names]
        )
    }
}
