import Hummingbird
import Synchronization

/// The server's router, for the sub-requests of `POST /v1/batch`: they are routed and
/// handled by exactly the code that handles a request over HTTP. Installed once the
/// router is built (the batch route is one of its routes).
final class SubrequestRouter: Sendable {
    private let responder = Mutex<RouterResponder<FerryRequestContext>?>(nil)

    func install(_ responder: RouterResponder<FerryRequestContext>) {
        self.responder.withLock { $0 = responder }
    }

    /// Lets go of the router: sub-requests are refused from now on, as before `install`.
    func uninstall() {
        responder.withLock { $0 = nil }
    }

    /// The answer of the router to `request`.
    func respond(to request: Request, context: FerryRequestContext) async throws -> Response {
        guard let responder = responder.withLock({ $0 }) else {
            throw APIError(.serviceUnavailable, "unavailable", "The server is still starting.")
        }
        return try await responder.respond(to: request, context: context)
    }
}
