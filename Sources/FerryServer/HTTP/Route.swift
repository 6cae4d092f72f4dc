import HTTPTypes

/// What a route handler is: it turns a request into a response or throws an ``APIError``.
typealias RouteHandler = @Sendable (APIRequest, ServerEnvironment) async throws -> APIResponse

/// One endpoint: a method, a path template such as `/v1/movies/{id}`, its access rule and its handler.
///
/// `ServerRoutes` registers every route on Hummingbird's router.
struct Route: Sendable {
    /// Who may call a route.
    enum Access: Sendable {
        /// Anyone.
        case anyone
        /// A bearer access token is required.
        case user
        /// Only callers on the loopback interface (admin endpoints).
        case loopback
    }

    /// What a route's request body is, which decides its size cap.
    enum BodyKind: Sendable {
        case json
        case upload
    }

    var method: HTTPRequest.Method
    var template: String
    var access: Access
    /// Which body cap applies: JSON (``FerryServerConfiguration/maxBodyBytes``) or upload
    /// (``FerryServerConfiguration/maxUploadBytes``).
    var body: BodyKind
    /// Whether the route may be sent inside `POST /v1/batch`.
    var batchable: Bool
    /// Whether a success ends the caller's session (logout): the rest of its batch is
    /// refused as a request with a revoked token would be.
    var endsSession: Bool
    /// Whether the route acts as the member `X-Acting-As-Member` names (a request about a
    /// family group): the member is then part of what the request is, and of its
    /// idempotency fingerprint. Every other route ignores the header.
    var actsAsMember = false
    var handler: RouteHandler

    init(
        _ method: HTTPRequest.Method,
        _ template: String,
        access: Access = .user,
        body: BodyKind = .json,
        batchable: Bool = true,
        endsSession: Bool = false,
        handler: @escaping RouteHandler
    ) {
        self.method = method
        self.template = template
        self.access = access
        self.body = body
        self.batchable = batchable
        self.endsSession = endsSession
        self.handler = handler
    }
}

extension Route {
    /// The same route, acting as the member `X-Acting-As-Member` names.
    func actingAsMember() -> Route {
        var route = self
        route.actsAsMember = true
        return route
    }
}
