import Foundation
import HTTPTypes

/// `POST /v1/batch`: many sub-requests in one round trip, each handled in order exactly as
/// if sent alone (authentication from the outer request, checked once; idempotency per
/// sub-request).
enum BatchRoute {
    static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    /// Sub-request headers that are honoured; others are ignored.
    static let forwardedHeaders: Set<String> = [
        "idempotency-key", "if-match", "if-none-match", "x-acting-as-member", "range",
    ]

    /// The route, dispatching sub-requests to `inner` (which does not contain the batch route itself).
    static func route(inner: APIRouter) -> Route {
        Route(.post, "/v1/batch", batchable: false) { request, env in
            try await handle(request, dispatcher: Dispatcher(router: inner, environment: env))
        }
    }

    static func handle(_ request: APIRequest, dispatcher: Dispatcher) async throws -> APIResponse {
        let body = try request.jsonObject(allowing: ["requests"])
        guard let items = body["requests"]?.arrayValue else {
            throw APIError.invalidField("requests", "Field 'requests' must be an array of sub-requests.")
        }
        let limit = dispatcher.environment.configuration.maxBatchRequests
        guard items.count <= limit else {
            throw APIError.badRequest(
                "batch_too_large",
                "A batch holds at most \(limit) requests; this one has \(items.count).",
                details: ["limit": .int(limit)]
            )
        }
        let parsed = items.enumerated().map { index, item in
            Result { () throws(APIError) in
                try subrequest(item, index: index, outer: request, dispatcher: dispatcher)
            }
        }
        let environment = dispatcher.environment
        let user = try request.requireUser()
        let keys = parsed.compactMap { try? $0.get().1.header("Idempotency-Key") }
        let records = try await BatchIdempotency.begin(
            keys: keys,
            userID: user.id,
            database: environment.database,
            inFlight: environment.inFlight
        )
        var responses: [JSON] = []
        for result in parsed {
            let response: APIResponse
            switch result {
            case .success(let (route, subrequest)):
                environment.stats.record("\(subrequest.method.rawValue) \(route.template)", batched: true)
                response = await dispatcher.execute(route, subrequest, isLoopback: false, batch: records)
            case .failure(let error):
                response = .error(error)
            }
            responses.append(json(response))
        }
        try await records.finish(database: environment.database, inFlight: environment.inFlight, now: environment.now)
        return .json(["responses": .array(responses)])
    }

    static func subrequest(
        _ item: JSON,
        index: Int,
        outer: APIRequest,
        dispatcher: Dispatcher
    ) throws(APIError) -> (Route, APIRequest) {
        guard let object = item.objectValue else {
            throw APIError.badRequest("invalid_subrequest", "requests[\(index)] must be an object.")
        }
        let unknown = Set(object.keys).subtracting(["method", "path", "headers", "body"])
        if let key = unknown.sorted().first {
            throw APIError(
                .badRequest,
                "unknown_field",
                "requests[\(index)] has unknown field '\(key)'.",
                details: ["field": .string(key)]
            )
        }
        guard let method = object["method"]?.stringValue?.uppercased(), methods.contains(method) else {
            throw APIError.badRequest(
                "invalid_subrequest",
                "requests[\(index)].method must be one of \(methods.sorted().joined(separator: ", "))."
            )
        }
        guard let fullPath = object["path"]?.stringValue, fullPath.hasPrefix("/v1/") else {
            throw APIError.badRequest(
                "invalid_subrequest",
                "requests[\(index)].path must be a string starting with /v1/."
            )
        }
        var headers: [String: String] = [:]
        if let given = object["headers"], !given.isNull {
            guard let given = given.objectValue else {
                throw APIError.badRequest(
                    "invalid_subrequest",
                    "requests[\(index)].headers must be an object of strings."
                )
            }
            for (name, value) in given {
                guard let value = value.stringValue else {
                    throw APIError.badRequest(
                        "invalid_subrequest",
                        "requests[\(index)].headers.\(name) must be a string."
                    )
                }
                if forwardedHeaders.contains(name.lowercased()) { headers[name.lowercased()] = value }
            }
        }
        headers["authorization"] = outer.header("Authorization")
        var bodyData = Data()
        if let body = object["body"], !body.isNull {
            bodyData = body.encoded()
            headers["content-type"] = "application/json"
        }
        let parts = fullPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts[0])
        if path.hasPrefix("/v1/batch") {
            throw APIError.badRequest("not_batchable", "A batch cannot contain another batch.")
        }
        let httpMethod = HTTPRequest.Method(method) ?? .get
        let (route, parameters) = try dispatcher.resolve(method: httpMethod, path: path)
        guard route.batchable else {
            throw APIError.badRequest("not_batchable", "\(method) \(route.template) cannot be sent inside a batch.")
        }
        let query = parts.count > 1 ? PathSegments.query(String(parts[1])) : [:]
        var request = APIRequest(
            method: httpMethod,
            path: path,
            query: query,
            headers: headers,
            body: bodyData,
            parameters: parameters
        )
        request.user = outer.user
        return (route, request)
    }

    /// `{"status", "headers", "body"}`; a body that is not JSON goes in `body_base64`.
    static func json(_ response: APIResponse) -> JSON {
        var object: [String: JSON] = [
            "status": .int(response.status.code),
            "body": .null,
        ]
        var headers = response.headers
        if !response.body.isEmpty {
            if let json = JSON.decode(response.body) {
                object["body"] = json
                // The body is JSON by construction; a type is kept only for other bodies.
                headers = headers.filter { $0.key.lowercased() != "content-type" }
            } else {
                object["body_base64"] = .string(response.body.base64EncodedString())
            }
        }
        object["headers"] = .object(headers.mapValues(JSON.string))
        return .object(object)
    }
}
