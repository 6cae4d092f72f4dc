import Foundation
import HTTPTypes
import Logging

/// Runs a route for a request: access check, idempotency, handler; turns errors into answers.
///
/// ``RouteEndpoint`` calls it for every routed request, whether it came over HTTP or as a
/// sub-request of `POST /v1/batch`, so both behave the same.
struct Dispatcher: Sendable {
    let environment: ServerEnvironment

    /// Runs `route` for `request`; never throws. A sub-request is refused when its route is
    /// not batchable or its batch's session has ended, and keeps its idempotency record
    /// with its batch.
    func execute(_ route: Route, _ request: APIRequest, context: FerryRequestContext) async -> APIResponse {
        var request = request
        let batch = context.batch
        do {
            if let batch {
                guard route.batchable else {
                    throw APIError.badRequest(
                        "not_batchable",
                        "\(route.method.rawValue) \(route.template) cannot be sent inside a batch."
                    )
                }
                guard !batch.sessionEnded else { throw Sessions.refused(.revoked) }
            }
            switch route.access {
            case .anyone:
                break
            case .loopback:
                try AdminGate.check(request, isLoopback: context.isLoopback, access: environment.configuration.admin)
            case .user:
                // A sub-request acts as its batch's user, authenticated once.
                if let batch { request.user = batch.user } else { request.user = try await authenticate(request) }
            }
            let response: APIResponse
            if let user = request.user, let key = request.header("Idempotency-Key"), Self.isMutating(request.method) {
                response = try await idempotent(route, request, user: user, key: key, batch: batch?.idempotency)
            } else {
                response = try await IdempotentRequest.$current.withValue(nil) {
                    try await route.handler(request, environment)
                }
            }
            if route.endsSession, (200..<300).contains(response.status.code) { batch?.endSession() }
            return response
        } catch {
            return ErrorAnswer.response(
                for: error,
                method: request.method,
                path: request.path,
                environment: environment
            )
        }
    }

    private func authenticate(_ request: APIRequest) async throws -> AuthenticatedUser {
        guard let header = request.header("Authorization") else {
            throw Sessions.refused(.unknown).with(message: "A bearer access token is required.", reason: "missing")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw Sessions.refused(.unknown).with(
                message: "Use 'Authorization: Bearer <access token>'.",
                reason: "malformed"
            )
        }
        let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
        let now = environment.now
        let result = try await environment.database.read { db in
            try Sessions.authenticate(db, accessToken: token, now: now)
        }
        return try result.get()
    }

    private func idempotent(
        _ route: Route,
        _ request: APIRequest,
        user: AuthenticatedUser,
        key: String,
        batch: BatchIdempotency?
    ) async throws -> APIResponse {
        guard !key.isEmpty, key.count <= 255, key.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value < 0x7F })
        else {
            throw APIError.badRequest(
                "invalid_idempotency_key",
                "Idempotency-Key must be 1-255 visible ASCII characters."
            )
        }
        let fingerprint = IdempotencyStore.fingerprint(request, actsAsMember: route.actsAsMember)
        if let record = batch?.record(for: key) { return try replay(record, fingerprint: fingerprint, key: key) }
        let inFlight = APIError(
            .conflict,
            "idempotency_key_in_flight",
            "A request with this Idempotency-Key is still being processed.",
            headers: ["Retry-After": "1"]
        )
        if let batch {
            // The batch holds its keys' claims and has read their records; it saves the
            // answer in its transaction.
            guard !batch.isBusy(key) else { throw inFlight }
            let response = try await respond(route, request, idempotent: nil)
            if response.status.code < 500 {
                batch.remember(key: key, fingerprint: fingerprint, response: response)
            }
            return response
        }
        let idempotent = IdempotentRequest(
            userID: user.id,
            key: key,
            fingerprint: fingerprint,
            crash: environment.crashBeforeRecord
        )
        let claim = BatchIdempotency.claim(user.id, key)
        guard environment.inFlight.claim(claim) else { throw inFlight }
        defer { environment.inFlight.release(claim) }
        if let record = try await environment.database.read({ db in
            try IdempotencyStore.find(db, userID: user.id, key: key)
        }) {
            return try replay(record, fingerprint: fingerprint, key: key)
        }
        let response: APIResponse
        do {
            response = try await respond(route, request, idempotent: idempotent)
        } catch let answered as IdempotencyStore.Answered {
            return try replay(answered.record, fingerprint: fingerprint, key: key)
        }
        // An answer without an effect (a refusal) is recorded here; a 5xx is not: the
        // request may be retried.
        if response.status.code < 500, !idempotent.isRecorded {
            let now = environment.now
            try await environment.database.write { db in
                // Another instance may have recorded this key meanwhile: its record stands.
                guard try IdempotencyStore.find(db, userID: user.id, key: key) == nil else { return }
                try IdempotencyStore.save(
                    db,
                    userID: user.id,
                    key: key,
                    fingerprint: fingerprint,
                    response: response,
                    now: now
                )
            }
        }
        return response
    }

    /// The handler's answer; an `APIError` is an answer too, other errors are not. The
    /// handler's effect records its answer as it commits (`ServerDatabase.commit`).
    private func respond(
        _ route: Route,
        _ request: APIRequest,
        idempotent: IdempotentRequest?
    ) async throws -> APIResponse {
        do {
            return try await IdempotentRequest.$current.withValue(idempotent) {
                try await route.handler(request, environment)
            }
        } catch let error as APIError {
            return .error(error)
        }
    }

    private func replay(_ record: IdempotencyStore.Record, fingerprint: String, key: String) throws -> APIResponse {
        guard record.fingerprint == fingerprint else {
            throw APIError(
                .unprocessableContent,
                "idempotency_key_reused",
                "This Idempotency-Key was already used for a different request (method, path or body).",
                details: ["idempotency_key": .string(key)]
            )
        }
        environment.metrics.idempotentReplay()
        var response = record.response
        response.headers["Idempotent-Replayed"] = "true"
        return response
    }

    static func isMutating(_ method: HTTPRequest.Method) -> Bool {
        method == .post || method == .put || method == .patch || method == .delete
    }
}

extension APIError {
    /// A copy with another message and `details.reason`.
    func with(message: String, reason: String) -> APIError {
        var copy = self
        copy.message = message
        copy.details["reason"] = .string(reason)
        return copy
    }
}
