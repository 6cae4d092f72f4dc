import Hummingbird

/// Answers what the routes below throw in the error shape: a path with no endpoint
/// (`404 not_found`), a wrong method (`405`), a body over its cap (`413`), a bad path (`400`).
struct ErrorMiddleware: RouterMiddleware {
    let environment: ServerEnvironment

    func handle(
        _ request: Request,
        context: FerryRequestContext,
        next: (Request, FerryRequestContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return ErrorAnswer.response(
                for: error,
                method: request.method,
                path: request.uri.path,
                environment: environment
            ).httpResponse(head: request.method == .head)
        }
    }
}
