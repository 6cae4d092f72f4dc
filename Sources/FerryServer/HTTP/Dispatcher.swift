import Foundation
import GRDB
import HTTPTypes
import Logging

/// Resolves a request to its route and runs it with authentication and idempotency.
///
/// Used for requests that arrive over HTTP and for each sub-request of `POST /v1/batch`,
/// so both behave the same.
struct Dispatcher: Sendable {
    let router: APIRouter
    let environment: ServerEnvironment

    /// The route for a method and raw path, or a 400/404/405 error.
    func resolve(method: HTTPRequest.Method, path: String) throws(APIError) -> (Route, [String: String]) {
        let segments = try PathSegments.split(path)
        switch router.match(method: method, segments: segments) {
        case .found(let route, let parameters):
            return (route, parameters)
        case .methodNotAllowed(let allowed):
            let names = Set(allowed.map(\.rawValue)).sorted().joined(separator: ", ")
            throw APIError(
                .methodNotAllowed,
                "method_not_allowed",
                "\(method.rawValue) is not allowed here; use \(names).",
                headers: ["Allow": names]
            )
        case .notFound:
            throw APIError.notFound("not_found", "No endpoint at \(path.prefix(200)).")
        }
    }

    /// Runs `route` for `request`: access check, idempotency, handler; never throws.
    /// A sub-request of a batch keeps its idempotency record with the `batch`'s.
    func execute(
        _ route: Route,
        _ request: APIRequest,
        isLoopback: Bool,
        batch: BatchIdempotency? = nil
    ) async -> APIResponse {
        var request = request
        do {
            switch route.access {
            case .anyone:
                break
            case .loopback:
                try AdminGate.check(request, isLoopback: isLoopback, access: environment.configuration.admin)
            case .user:
                // A sub-request of a batch arrives with the batch's own user.
                if request.user == nil { request.user = try await authenticate(request) }
            }
            if let user = request.user, let key = request.header("Idempotency-Key"), Self.isMutating(request.method) {
                return try await idempotent(route, request, user: user, key: key, batch: batch)
            }
            return try await route.handler(request, environment)
        } catch {
            return respond(to: error, request: request)
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
        let fingerprint = IdempotencyStore.fingerprint(request)
        if let record = batch?.record(for: key) { return try replay(record, fingerprint: fingerprint, key: key) }
        let inFlight = APIError(
            .conflict,
            "idempotency_key_in_flight",
            "A request with this Idempotency-Key is still being processed.",
            headers: ["Retry-After": "1"]
        )
        let idempotent = IdempotentRequest(userID: user.id, key: key, fingerprint: fingerprint)
        if let batch {
            // The batch holds its keys' claims and has read their records.
            guard !batch.isBusy(key) else { throw inFlight }
            let response = try await respond(route, request, idempotent: idempotent)
            if response.status.code < 500 {
                batch.remember(key: key, fingerprint: fingerprint, response: response, saved: idempotent.isRecorded)
            }
            return response
        }
        let claim = BatchIdempotency.claim(user.id, key)
        guard environment.inFlight.claim(claim) else { throw inFlight }
        defer { environment.inFlight.release(claim) }
        if let record = try await environment.database.read({ db in
            try IdempotencyStore.find(db, userID: user.id, key: key)
        }) {
            return try replay(record, fingerprint: fingerprint, key: key)
        }
        let response = try await respond(route, request, idempotent: idempotent)
        // An answer without an effect (a refusal) is recorded here; a 5xx is not: the
        // request may be retried.
        if response.status.code < 500, !idempotent.isRecorded {
            let now = environment.now
            try await environment.database.write { db in
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
        idempotent: IdempotentRequest
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
        var response = record.response
        response.headers["Idempotent-Replayed"] = "true"
        return response
    }

    private func respond(to error: any Error, request: APIRequest) -> APIResponse {
        if let error = error as? APIError {
            return .error(error)
        }
        if let failure = error as? TMDBFailure {
            return .json(failure.body, status: .init(code: failure.status))
        }
        if let failure = error as? DatabaseError, Self.isUnavailable(failure) {
            environment.logger.warning("The database is unavailable: \(failure.resultCode)")
            return .error(
                APIError(
                    .serviceUnavailable,
                    "database_unavailable",
                    "The server's database is busy or unavailable; nothing was changed. Try again shortly.",
                    headers: ["Retry-After": "1"]
                )
            )
        }
        environment.logger.error(
            "Unexpected error",
            metadata: ["method": "\(request.method.rawValue)", "path": "\(request.path)", "error": "\(error)"]
        )
        return .error(APIError(.internalServerError, "internal_error", "The server failed to handle this request."))
    }

    /// Whether `error` says the database cannot be used now (held by another process, out
    /// of room, unreadable) rather than that the request was wrong: the transaction rolled
    /// back, so a retry is safe.
    static func isUnavailable(_ error: DatabaseError) -> Bool {
        let unavailable: [ResultCode] = [
            .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_NOMEM, .SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_FULL,
            .SQLITE_CANTOPEN, .SQLITE_PROTOCOL,
        ]
        return unavailable.contains(error.resultCode.primaryResultCode)
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
