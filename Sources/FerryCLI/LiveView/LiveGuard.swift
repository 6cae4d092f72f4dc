import Foundation
import Hummingbird

/// Who may use the live view: with `status.token` set, a request must carry
/// `Authorization: Bearer <token>` (the page may bring it once as `?token=`); and a POST
/// must be a JSON request (`Content-Type: application/json`) from the live view's own
/// origin, which no form of another site can send.
struct LiveGuard<Context: RequestContext>: RouterMiddleware {
    /// The token to require; nil for none (loopback only).
    let token: String?

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        if let token {
            guard let given = Self.presentedToken(request), TokenComparison.equal(given, token) else {
                throw LiveError(
                    .unauthorized,
                    "unauthorized",
                    "this live view needs `Authorization: Bearer <status.token>`"
                )
            }
        }
        if request.method == .post {
            guard Self.isJSON(request.headers[.contentType]) else {
                throw LiveError(
                    .unsupportedMediaType,
                    "usage",
                    "a POST to the live view takes Content-Type: application/json"
                )
            }
            guard Self.isSameOrigin(request) else {
                throw LiveError(
                    .forbidden,
                    "forbidden",
                    "a POST must come from the live view's own page (Origin and Host differ)"
                )
            }
        }
        return try await next(request, context)
    }

    /// The bearer token of the request; `?token=` only for the page itself.
    static func presentedToken(_ request: Request) -> String? {
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            return String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        }
        if request.method == .get, request.uri.path == "/" { return request.uri.queryParameters.get("token") }
        return nil
    }

    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let media = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return media == "application/json"
    }

    /// Whether a browser's `Origin` (when it sent one) names the host the request was sent to.
    static func isSameOrigin(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin] else { return true }  // not from a browser page
        guard let host = request.head.authority else { return false }
        return origin.lowercased() == "http://\(host.lowercased())"
    }
}

/// Compares tokens without stopping at the first difference, so the time taken tells
/// nothing of how much of a guess was right.
enum TokenComparison {
    static func equal(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8)
        let expected = Array(expected.utf8)
        var difference = given.count == expected.count ? 0 : 1
        for index in expected.indices {
            difference |= Int((index < given.count ? given[index] : 0) ^ expected[index])
        }
        return difference == 0
    }
}
