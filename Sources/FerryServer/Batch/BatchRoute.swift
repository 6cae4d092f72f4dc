import Foundation
import HTTPTypes

/// `POST /v1/batch`: many sub-requests in one round trip, each handled in order exactly as
/// if sent alone (authentication from the outer request, checked once; idempotency per
/// sub-request), all in one transaction.
///
/// Each sub-request runs in a savepoint: one that fails (4xx, 5xx) is rolled back alone and
/// keeps its answer. The effects of the others, every sub-request's idempotency record and
/// the batch's own commit together: after a crash at any point there is either nothing of
/// the batch, or all of it with its records.
enum BatchRoute {
    /// The route; its sub-requests go through the server's router (`env.subrequests`).
    static let route = Route(.post, "/v1/batch", batchable: false, handler: handle)

    static func handle(_ request: APIRequest, _ environment: ServerEnvironment) async throws -> APIResponse {
        let body = try request.jsonObject(allowing: ["requests"])
        guard let items = body["requests"]?.arrayValue else {
            throw APIError.invalidField("requests", "Field 'requests' must be an array of sub-requests.")
        }
        let limit = environment.configuration.maxBatchRequests
        guard items.count <= limit else {
            throw APIError.badRequest(
                "batch_too_large",
                "A batch holds at most \(limit) requests; this one has \(items.count).",
                details: ["limit": .int(limit)]
            )
        }
        let parsed = items.enumerated().map { index, item in
            Result { () throws(APIError) in try Subrequest(item, index: index, outer: request) }
        }
        let user = try request.requireUser()
        environment.metrics.batch(size: items.count)
        let keys = parsed.compactMap { try? $0.get().headers["idempotency-key"] }
        let records = BatchIdempotency(
            claiming: keys,
            userID: user.id,
            inFlight: environment.inFlight,
            crash: environment.crashBeforeRecord
        )
        defer { records.release() }
        let run = BatchRun(user: user, idempotency: records)
        let database = environment.database
        let now = environment.now
        return try await database.transaction {
            try await records.load(from: database)
            var responses: [APIResponse] = []
            for result in parsed {
                switch result {
                case .success(let subrequest):
                    let context = FerryRequestContext(
                        subrequestOf: run,
                        body: subrequest.json,
                        logger: environment.logger
                    )
                    // A sub-request that fails leaves nothing behind but its answer.
                    let response = try await database.savepoint(
                        {
                            try await APIResponse(
                                environment.subrequests.respond(to: subrequest.request, context: context)
                            )
                        },
                        keep: { $0.status.code < 400 }
                    )
                    responses.append(response)
                case .failure(let error):
                    responses.append(.error(error))
                }
            }
            let answer = APIResponse(
                status: .ok,
                headers: ["Content-Type": "application/json; charset=utf-8"],
                body: encodedAnswers(responses)
            )
            // The sub-requests' records, and the batch's own under its key, commit with their effects.
            return try await database.commit(now: now, { db in try records.save(db, now: now) }, answer: { answer })
        }
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
