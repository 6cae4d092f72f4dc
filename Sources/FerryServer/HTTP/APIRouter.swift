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
    func match(method: HTTPRequest.Method, segments: [String]) -> Match {
        let candidates = routes.compactMap { route in route.match(segments).map { (route, $0) } }
        guard !candidates.isEmpty else { return .notFound }
        let lookup = method == .head ? HTTPRequest.Method.get : method
        let fitting = candidates.filter { $0.0.method == lookup }
        guard let best = fitting.max(by: { $0.0.literalCount < $1.0.literalCount }) else {
            return .methodNotAllowed(allowed: candidates.map(\.0.method))
        }
        // A literal route with another method must not be shadowed by a parameter route.
        let bestLiterals = candidates.map(\.0.literalCount).max() ?? 0
        if best.0.literalCount < bestLiterals {
            return .methodNotAllowed(allowed: candidates.filter { $0.0.literalCount == bestLiterals }.map(\.0.method))
        }
        return .found(best.0, parameters: best.1)
    }
}
