import Foundation

/// `/admin/...`: faults, away mode, request statistics, users. Loopback callers only; never faulted.
enum AdminRoutes {
    static var routes: [Route] {
        [
            Route(.get, "/admin/faults", access: .loopback, batchable: false) { _, env in .json(faultsJSON(env)) },
            Route(.put, "/admin/faults", access: .loopback, batchable: false, handler: putFaults),
            Route(.post, "/admin/away", access: .loopback, batchable: false, handler: away),
            Route(.get, "/admin/stats", access: .loopback, batchable: false) { _, env in .json(env.stats.json) },
            Route(.delete, "/admin/stats", access: .loopback, batchable: false) { _, env in
                env.stats.reset()
                return .noContent
            },
            Route(.post, "/admin/users", access: .loopback, batchable: false, handler: createUser),
        ]
    }

    static func faultsJSON(_ env: ServerEnvironment) -> JSON {
        var json = JSON.decode((try? JSONEncoder().encode(env.faults.settings)) ?? Data()) ?? [:]
        json["away"] = .bool(env.listener.isAway)
        return json
    }

    static func putFaults(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let allowed: Set<String> = [
            "error_rate", "rate_limit_rate", "unavailable_rate", "retry_after_seconds", "latency_ms", "drop_rate",
            "truncate_rate", "fail_next", "path_prefix", "seed",
        ]
        _ = try request.jsonObject(allowing: allowed)
        let settings: FaultSettings
        do {
            settings = try JSONDecoder().decode(FaultSettings.self, from: request.body)
        } catch {
            throw APIError.badRequest("invalid_faults", "The fault settings do not decode: \(error)")
        }
        let rates = [
            settings.errorRate, settings.rateLimitRate, settings.unavailableRate, settings.dropRate,
            settings.truncateRate,
        ]
        guard rates.allSatisfy({ (0...1).contains($0) }), settings.latencyMilliseconds >= 0,
            settings.latencyMilliseconds <= 60_000, settings.retryAfterSeconds >= 0,
            (settings.failNext?.count ?? 0) >= 0
        else {
            throw APIError.badRequest(
                "invalid_faults",
                "Rates must be within 0...1, latency_ms within 0...60000, counts not negative."
            )
        }
        env.faults.update(settings)
        return .json(faultsJSON(env))
    }

    static func away(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let body = try request.jsonObject(allowing: ["seconds"])
        let seconds: Double
        switch body["seconds"] {
        case .int(let value): seconds = Double(value)
        case .double(let value): seconds = value
        default: throw APIError.invalidField("seconds", "Field 'seconds' (0 < seconds <= 300) is required.")
        }
        guard seconds > 0, seconds <= 300 else {
            throw APIError.invalidField("seconds", "Field 'seconds' must be within 0 < seconds <= 300.")
        }
        let listener = env.listener
        // Detached: a child of this request would inherit the old listener's task-locals
        // (its graceful-shutdown state) and stop the new listener at once.
        Task.detached {
            // Let this response reach the caller before the listener goes.
            try? await Task.sleep(for: .milliseconds(50))
            await listener.goAway(for: seconds)
        }
        return .json(["away": true, "seconds": .double(seconds)], status: .accepted)
    }

    static func createUser(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let body = try request.jsonObject(allowing: ["username", "password", "display_name"])
        let username = try body.requiredString("username")
        let password = try body.requiredString("password")
        let displayName = try body.optionalString("display_name") ?? username
        _ = try Identifier.validated(username, code: "invalid_username", name: "username")
        let cost = env.configuration.passwordHashCost
        let now = env.now
        let user = try await env.database.write { db in
            try Users.create(db, username: username, password: password, displayName: displayName, cost: cost, now: now)
        }
        return .json(["user": user], status: .created)
    }
}
