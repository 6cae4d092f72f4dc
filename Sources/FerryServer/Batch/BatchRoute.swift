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
        var responses: [APIResponse] = []
        var sessionEnded = false
        for result in parsed {
            let response: APIResponse
            switch result {
            case .success(let (route, subrequest)) where sessionEnded:
                response = .error(Sessions.refused(.revoked))
                environment.stats.record("\(subrequest.method.rawValue) \(route.template)", batched: true)
            case .success(let (route, subrequest)):
                environment.stats.record("\(subrequest.method.rawValue) \(route.template)", batched: true)
                response = await dispatcher.execute(route, subrequest, isLoopback: false, batch: records)
                sessionEnded = route.endsSession && (200..<300).contains(response.status.code)
            case .failure(let error):
                response = .error(error)
            }
            responses.append(response)
        }
        try await records.finish(database: environment.database, inFlight: environment.inFlight, now: environment.now)
        return APIResponse(
            status: .ok,
            headers: ["Content-Type": "application/json; charset=utf-8"],
            body: encodedAnswers(responses)
        )
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
                "invalid_subrequest",
                "requests[\(index)] has unknown field '\(key)'; a sub-request has method, path, headers and body.",
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
        let json = object["body"].flatMap { $0.isNull ? nil : $0 }
        if let json {
            bodyData = json.encoded()
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
        request.json = json
        return (route, request)
    }

    /// `{"responses": [{"status", "headers", "body"}, ...]}`. A JSON body is copied in as
    /// it is (every JSON answer of this server is encoded by it); another body goes in
    /// `body_base64`, with its `Content-Type` kept.
    static func encodedAnswers(_ responses: [APIResponse]) -> Data {
        var out = Data(#"{"responses":["#.utf8)
        for (index, response) in responses.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let type = response.headers.first { $0.key.lowercased() == "content-type" }?.value.lowercased()
            let isJSON = type?.hasPrefix("application/json") == true
            var headers = response.headers
            if isJSON || response.body.isEmpty { headers = headers.filter { $0.key.lowercased() != "content-type" } }
            out.append(contentsOf: #"{"status":\#(response.status.code),"headers":"#.utf8)
            out.append(JSON.object(headers.mapValues(JSON.string)).encoded())
            if response.body.isEmpty {
                out.append(contentsOf: #","body":null}"#.utf8)
            } else if isJSON {
                out.append(contentsOf: #","body":"#.utf8)
                out.append(response.body)
                out.append(UInt8(ascii: "}"))
            } else {
                out.append(contentsOf: #","body":null,"body_base64":"\#(response.body.base64EncodedString())"}"#.utf8)
            }
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }
}
