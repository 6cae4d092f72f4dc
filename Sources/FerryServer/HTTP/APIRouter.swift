import HTTPTypes

/// Finds the route for a method and path; literal segments win over parameters.
struct APIRouter: Sendable {
    private(set) var routes: [Route] = []

    /// The outcome of matching a request against the routes.
    enum Match: Sendable {
        case found(Route, parameters: [String: String])
        case methodNotAllowed(allowed: [HTTPRequest.Method])
        case notFound
    }

    mutating func add(_ route: Route) {
        routes.append(route)
    }

    mutating func add(contentsOf routes: [Route]) {
        self.routes.append(contentsOf: routes)
    }

    /// Matches already split, percent-decoded path segments. HEAD matches GET routes.
    ///
    /// The templates with the most literal segments own a path, whatever their methods: a
    /// parameter route never answers for a literal one (`PATCH /v1/movies/changes` is not
    /// `PATCH /v1/movies/{id}`). A method none of them has is a 405 that allows exactly
    /// their methods, with HEAD beside GET.
    func match(method: HTTPRequest.Method, segments: [String]) -> Match {
        let candidates = routes.compactMap { route in route.match(segments).map { (route, $0) } }
        guard let mostLiterals = candidates.map(\.0.literalCount).max() else { return .notFound }
        let owners = candidates.filter { $0.0.literalCount == mostLiterals }
        let lookup = method == .head ? HTTPRequest.Method.get : method
        guard let (route, parameters) = owners.first(where: { $0.0.method == lookup }) else {
            let allowed = owners.map(\.0.method)
            return .methodNotAllowed(allowed: allowed.contains(.get) ? allowed + [.head] : allowed)
        }
        return .found(route, parameters: parameters)
    }
}
