import Hummingbird
import NIOCore

/// Reads a request's body up to `limit` bytes; more (by `Content-Length` or as it streams
/// in) is a `413 payload_too_large`. Routes find the body read in full.
struct BodyLimitMiddleware: RouterMiddleware {
    let limit: Int

    func handle(
        _ request: Request,
        context: FerryRequestContext,
        next: (Request, FerryRequestContext) async throws -> Response
    ) async throws -> Response {
        let tooLarge = APIError(
            .contentTooLarge,
            "payload_too_large",
            "The request body exceeds \(limit) bytes.",
            details: ["limit": .int(limit)]
        )
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge }
        var data = ByteBuffer()
        do {
            for try await buffer in request.body {
                if data.readableBytes + buffer.readableBytes > limit { throw tooLarge }
                // A body of one buffer (a sub-request's, most small ones) is kept as it is.
                if data.readableBytes == 0 { data = buffer } else { data.writeImmutableBuffer(buffer) }
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.badRequest("unreadable_body", "The request body could not be read.")
        }
        var request = request
        request.body = RequestBody(buffer: data)
        return try await next(request, context)
    }
}
