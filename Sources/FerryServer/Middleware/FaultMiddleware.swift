import Hummingbird
import NIOCore

/// Injects the faults of ``FaultInjector`` into requests that came over HTTP (never into
/// `/admin` or `/metrics`, and once per batch, not per sub-request): latency, an error answer instead of
/// the route's, or a damaged response after the route has run.
struct FaultMiddleware: RouterMiddleware {
    let faults: FaultInjector

    /// Raised inside a response body writer to cut the connection (drop/truncate faults).
    struct InjectedDisconnect: Error {}

    func handle(
        _ request: Request,
        context: FerryRequestContext,
        next: (Request, FerryRequestContext) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard context.batch == nil, !path.hasPrefix("/admin"), path != "/metrics" else {
            return try await next(request, context)
        }
        let (latency, decision) = faults.decide(path: path)
        if latency > 0 { try? await Task.sleep(for: .milliseconds(latency)) }
        switch decision {
        case .none:
            return try await next(request, context)
        case .respond(let kind):
            return APIResponse.error(faults.error(for: kind)).httpResponse(head: request.method == .head)
        case .damage(let kind):
            let response = try await next(request, context)
            return request.method == .head ? response : try await Self.damaged(response, kind)
        }
    }

    /// `drop`: half of the body, then the connection closes; `truncate`: a `Content-Length`
    /// 64 bytes longer than the body, then the connection closes.
    private static func damaged(_ response: Response, _ kind: FaultKind) async throws -> Response {
        let body = try await response.body.bytes()
        var headers = response.headers
        let length = headers[.contentLength].flatMap(Int.init) ?? body.readableBytes
        let sent: ByteBuffer
        switch kind {
        case .truncate:
            headers[.contentLength] = String(length + 64)
            sent = body
        default:
            sent = body.getSlice(at: body.readerIndex, length: body.readableBytes / 2) ?? ByteBuffer()
        }
        let announced = headers[.contentLength].flatMap(Int.init) ?? length
        return Response(
            status: response.status,
            headers: headers,
            body: ResponseBody(contentLength: announced) { writer in
                try await writer.write(sent)
                throw InjectedDisconnect()
            }
        )
    }
}
