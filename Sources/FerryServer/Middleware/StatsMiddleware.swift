import Hummingbird

/// Counts each request under its method and route template (`<unmatched>` when no route
/// has its path), faulted ones included; a batch's sub-requests under `batched`.
struct StatsMiddleware: RouterMiddleware {
    let stats: RequestStats

    func handle(
        _ request: Request,
        context: FerryRequestContext,
        next: (Request, FerryRequestContext) async throws -> Response
    ) async throws -> Response {
        defer {
            stats.record(method: request.method, route: Self.route(context), batched: context.batch != nil)
        }
        return try await next(request, context)
    }

    /// The template of the route that answered, or `<unmatched>`.
    static func route(_ context: FerryRequestContext) -> String {
        guard let path = context.coreContext.endpointPath.value, path != "NotFound" else { return "<unmatched>" }
        return path
    }
}
