import Foundation

/// `/v1/auth/...`: login, refresh, logout, me.
enum AuthRoutes {
    static var routes: [Route] {
        [
            Route(.post, "/v1/auth/login", access: .anyone, batchable: false, handler: login),
            Route(.post, "/v1/auth/refresh", access: .anyone, batchable: false, handler: refresh),
            Route(.post, "/v1/auth/logout", endsSession: true, handler: logout),
            Route(.get, "/v1/auth/me", handler: me),
        ]
    }

    static func login(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let body = try request.jsonObject(allowing: ["username", "password"])
        let username = try body.requiredString("username")
        let password = try body.requiredString("password")
        let configuration = env.configuration
        let now = env.now
        let peer = request.peer
        let found = try await env.database.read { db in
            try LoginLimits.check(db, username: username, peer: peer, configuration: configuration, now: now)
            return try Users.find(db, username: username)
        }
        let verified = await env.passwords.verify(password, hash: found?.hash)
        guard let found, verified, let userID = found.user["id"]?.stringValue else {
            try await env.database.write { db in
                try LoginLimits.recordFailure(db, username: username, peer: peer, configuration: configuration, now: now)
            }
            throw APIError(.unauthorized, "invalid_credentials", "Unknown username or wrong password.")
        }
        let pair = try await env.database.write { db in
            try LoginLimits.recordSuccess(db, username: username)
            return try Sessions.open(db, userID: userID, configuration: configuration, now: now)
        }
        return .json(
            tokenBody(access: pair.access, refresh: pair.refresh, user: found.user, configuration: configuration)
        )
    }

    static func refresh(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let body = try request.jsonObject(allowing: ["refresh_token"])
        let token = try body.requiredString("refresh_token")
        let configuration = env.configuration
        let now = env.now
        let outcome = try await env.database.write { db -> Result<(JSON, String, String), APIError> in
            switch try Sessions.refresh(db, refreshToken: token, configuration: configuration, now: now) {
            case .failure(let error):
                return .failure(error)
            case .success(let rotated):
                guard let user = try Users.find(db, id: rotated.userID) else {
                    return .failure(Sessions.refused(.unknown))
                }
                return .success((user, rotated.access, rotated.refresh))
            }
        }
        let (user, access, refresh) = try outcome.get()
        return .json(tokenBody(access: access, refresh: refresh, user: user, configuration: configuration))
    }

    static func logout(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let user = try request.requireUser()
        return try await env.database.commit(now: env.now) { db in
            try Sessions.revoke(db, sessionID: user.sessionID)
        } answer: { _ in
            .noContent
        }
    }

    static func me(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let user = try request.requireUser()
        return .json(["user": user.json])
    }

    static func tokenBody(access: String, refresh: String, user: JSON, configuration: FerryServerConfiguration) -> JSON
    {
        [
            "access_token": .string(access),
            "refresh_token": .string(refresh),
            "token_type": "Bearer",
            "expires_in": .int(Int(configuration.accessTokenLifetime)),
            "refresh_expires_in": .int(Int(configuration.refreshTokenLifetime)),
            "user": user,
        ]
    }
}
