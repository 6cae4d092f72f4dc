import Hummingbird
import Logging

/// Logs one line per request that came over HTTP: method, path (never the query string:
/// it may carry `api_key`), status and duration. Never tokens or bodies.
struct RequestLogMiddleware: RouterMiddleware {
    let logger: Logger

    func handle(
        _ request: Request,
        context: FerryRequestContext,
        next: (Request, FerryRequestContext) async throws -> Response
    ) async throws -> Response {
        guard context.batch == nil, logger.logLevel <= .info else { return try await next(request, context) }
        let started = ContinuousClock.now
        var status = 500
        defer { log(request, status: status, elapsed: ContinuousClock.now - started) }
        let response = try await next(request, context)
        status = response.status.code
        return response
    }

    private func log(_ request: Request, status: Int, elapsed: Duration) {
        let path = request.uri.path
        let method = request.method.rawValue
        let tenths = elapsed.components.seconds * 10_000 + elapsed.components.attoseconds / 100_000_000_000_000
        logger.info(
            "\(method) \(path) \(status)",
            metadata: [
                "method": "\(method)", "path": "\(path)", "status": "\(status)",
                "duration_ms": "\(tenths / 10).\(tenths % 10)",
            ]
        )
    }
}
