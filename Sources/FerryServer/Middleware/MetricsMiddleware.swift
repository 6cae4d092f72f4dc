import Hummingbird

/// Counts each request that came over HTTP for `GET /metrics`: by route template and
/// status, with its latency.
struct MetricsMiddleware: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(
        _ request: Request,
        context: FerryRequestContext,
        next: (Request, FerryRequestContext) async throws -> Response
    ) async throws -> Response {
        guard context.batch == nil else { return try await next(request, context) }
        let started = ContinuousClock.now
        var status = 500
        defer {
            metrics.request(
                route: StatsMiddleware.route(context),
                method: request.method,
                status: status,
                duration: ContinuousClock.now - started
            )
        }
        let response = try await next(request, context)
        status = response.status.code
        return response
    }
}
