import Hummingbird

/// Refuses a path with a segment that decodes to `.` or `..`, or to something with a
/// slash, backslash or NUL, before any route sees it (`400 invalid_path`).
struct PathCheckMiddleware: RouterMiddleware {
    func handle(
        _ request: Request,
        context: FerryRequestContext,
        next: (Request, FerryRequestContext) async throws -> Response
    ) async throws -> Response {
        try PathSegments.check(request.uri.path)
        return try await next(request, context)
    }
}
