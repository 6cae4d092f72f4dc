import Foundation
import HTTPTypes
import Hummingbird

/// One route as Hummingbird's router calls it: the request becomes an ``APIRequest``, the
/// ``Dispatcher`` runs the route, and its answer becomes the response.
///
/// A sub-request of `POST /v1/batch` comes through here too, routed by the same router.
struct RouteEndpoint: HTTPResponder {
    let route: Route
    let dispatcher: Dispatcher

    func respond(to request: Request, context: FerryRequestContext) async throws -> Response {
        let isHead = request.method == .head
        var apiRequest = APIRequest(
            method: isHead ? .get : request.method,
            path: request.uri.path,
            query: PathSegments.query(request.uri.query),
            headers: Self.headers(request.headers),
            body: try await Self.body(of: request),
            parameters: Self.parameters(context.coreContext.parameters)
        )
        apiRequest.peer = context.peer
        apiRequest.json = context.parsedBody
        let response = await dispatcher.execute(route, apiRequest, context: context)
        return response.httpResponse(head: isHead)
    }

    /// The body, already read and capped by ``BodyLimitMiddleware``.
    private static func body(of request: Request) async throws -> Data {
        var collected = request
        let buffer = try await collected.collectBody(upTo: .max)
        return Data(buffer.readableBytesView)
    }

    /// Request headers keyed by lowercased name; repeated headers are joined with ", ".
    static func headers(_ fields: HTTPFields) -> [String: String] {
        var headers: [String: String] = [:]
        for field in fields {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
        }
        return headers
    }

    /// The captured path parameters, percent-decoded (``PathCheckMiddleware`` has checked them).
    private static func parameters(_ captured: Parameters) -> [String: String] {
        var parameters: [String: String] = [:]
        for (name, value) in captured {
            parameters[String(name)] = PathSegments.decoded(value) ?? String(value)
        }
        return parameters
    }
}
