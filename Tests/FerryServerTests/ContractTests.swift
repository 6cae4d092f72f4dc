import Foundation
import NIOHTTP1
import Testing

@testable import FerryServer

/// What docs/protocol.md promises, checked the way a backend written from it, or a
/// conformance tool, would check it.
@Suite("Protocol contract")
struct ContractTests {
    // MARK: §6 Changes feeds

    @Test func aCursorBeyondTheHighestIssuedIsInvalid() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        // The last write of the server: its feed's cursor is the highest issued.
        #expect(try await server.request(.PUT, "/v1/saved-recipes/demo-pancakes", token: token).status == 201)
        let feed = try await server.request(.GET, "/v1/saved-recipes/changes", token: token)
        let highest = try #require((feed.object["cursor"] as? String).flatMap { Int($0) })
        for path in ["/v1/saved-recipes/changes", "/v1/movies/changes"] {
            #expect(try await server.request(.GET, "\(path)?since=\(highest)", token: token).status == 200)
            for cursor in [highest + 1, 999_999_999] {
                let response = try await server.request(.GET, "\(path)?since=\(cursor)", token: token)
                #expect(response.status == 400, "\(path) since=\(cursor)")
                #expect(response.errorCode == "invalid_cursor", "\(path) since=\(cursor)")
            }
        }
        let group = try await server.request(.GET, "/v1/groups/g_demo_family/changes?since=999999999", token: token)
        #expect(group.errorCode == "invalid_cursor")
        await server.stop()
    }

    /// A write's answer names its change (`Ferry-Change`), inside a batch too; `seen` takes
    /// one or two such numbers, and anything else is `invalid_cursor`.
    @Test func aWritesAnswerNamesItsChangeAndSeenTakesOnlyChangeNumbers() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let put = try await server.request(.PUT, "/v1/saved-recipes/demo-pancakes", token: token)
        let change = try #require(put.headers["ferry-change"].flatMap { Int($0) })
        let feed = try await server.request(.GET, "/v1/saved-recipes/changes", token: token)
        #expect(feed.object["cursor"] as? String == String(change), "the write was the last change")
        let batch = try await server.request(
            .POST,
            "/v1/batch",
            json: ["requests": [["method": "DELETE", "path": "/v1/saved-recipes/demo-pancakes"]]],
            token: token
        )
        let answers = try #require(batch.object["responses"] as? [[String: Any]])
        let headers = answers.first?["headers"] as? [String: String] ?? [:]
        #expect(headers.first { $0.key.lowercased() == "ferry-change" }.flatMap { Int($0.value) } == change + 1)
        for seen in ["\(change)", "\(change),\(change + 1)", "\(change + 1),\(change)"] {
            let answer = try await server.request(.GET, "/v1/saved-recipes/changes?seen=\(seen)", token: token)
            #expect(answer.status == 200, "seen=\(seen)")
        }
        for seen in ["", "x", "-1", "1,2,3", "1,", "01", "\(change + 2)", "\(change),\(change + 2)"] {
            let answer = try await server.request(.GET, "/v1/saved-recipes/changes?seen=\(seen)", token: token)
            #expect(answer.status == 400 && answer.errorCode == "invalid_cursor", "seen=\(seen)")
        }
        await server.stop()
    }

    // MARK: §4 Versions and conditional writes

    @Test func ifMatchOnAGoneMovieIs412WithNoCurrent() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        #expect(try await server.request(.DELETE, "/v1/movies/m_demo_arrival", token: token).status == 204)
        let attempts: [(HTTPMethod, String, String, [String: Any]?)] = [
            (.PATCH, "/v1/movies/m_demo_arrival", "\"1\"", ["status": "watched"]),
            (.PATCH, "/v1/movies/m_demo_arrival", "*", ["status": "watched"]),
            (.DELETE, "/v1/movies/m_demo_arrival", "\"2\"", nil),
            (.DELETE, "/v1/movies/m_demo_arrival", "*", nil),
            (.PATCH, "/v1/movies/m_never_made", "\"1\"", ["status": "watched"]),
            (.DELETE, "/v1/movies/m_never_made", "W/\"1\"", nil),
        ]
        for (method, path, ifMatch, body) in attempts {
            let response = try await server.request(
                method,
                path,
                json: body,
                token: token,
                headers: ["If-Match": ifMatch]
            )
            let label = "\(method) \(path) If-Match: \(ifMatch)"
            #expect(response.status == 412, "\(label)")
            #expect(response.errorCode == "version_mismatch", "\(label)")
            #expect(response.errorDetails["current"] is NSNull, "\(label)")
        }
        // Without If-Match a gone movie stays a 404.
        let patch = try await server.request(
            .PATCH,
            "/v1/movies/m_demo_arrival",
            json: ["status": "watched"],
            token: token
        )
        #expect(patch.status == 404)
        #expect(patch.errorCode == "movie_not_found")
        #expect(try await server.request(.DELETE, "/v1/movies/m_never_made", token: token).status == 404)
        await server.stop()
    }

    @Test func ifMatchOnAMissingRecipeOrRoundIs412WithNoCurrent() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let photo = try await server.request(
            .PUT,
            "/v1/recipes/no-such-recipe/photo",
            body: Data([0x89, 0x50, 0x4E, 0x47]),
            token: token,
            headers: ["Content-Type": "image/png", "If-Match": "\"1\""]
        )
        #expect(photo.status == 412)
        #expect(photo.errorDetails["current"] is NSNull)
        let recipe = try await server.request(
            .PUT,
            "/v1/recipes/no-such-recipe",
            json: ["title": "Soup"],
            token: token,
            headers: ["If-Match": "\"1\""]
        )
        #expect(recipe.status == 412)
        #expect(recipe.errorDetails["current"] is NSNull)
        let round = try await server.request(
            .POST,
            "/v1/rounds/r_no_such_round/close",
            token: token,
            headers: ["If-Match": "\"1\""]
        )
        #expect(round.status == 412)
        #expect(round.errorDetails["current"] is NSNull)
        let unconditional = try await server.request(
            .PUT,
            "/v1/recipes/no-such-recipe/photo",
            body: Data([0x89, 0x50, 0x4E, 0x47]),
            token: token,
            headers: ["Content-Type": "image/png"]
        )
        #expect(unconditional.status == 404)
        #expect(try await server.request(.POST, "/v1/rounds/r_no_such_round/close", token: token).status == 404)
        await server.stop()
    }

    @Test func onlyVersionTagsAndStarAreIfMatchValues() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let malformed = ["-1", "\"1", "W/1", "1\"", "\"\"", "abc", "1, 2", "+1", "W/\"-1\"", "\"1 \"", "W/\"*\"", "１"]
        for path in ["/v1/movies/m_demo_heat", "/v1/movies/m_never_made"] {
            for value in malformed {
                let response = try await server.request(
                    .PATCH,
                    path,
                    json: ["status": "watching"],
                    token: token,
                    headers: ["If-Match": value]
                )
                #expect(response.status == 400, "\(path) If-Match: \(value)")
                #expect(response.errorCode == "invalid_if_match", "\(path) If-Match: \(value)")
            }
        }
        // Well-formed but stale: a precondition that fails, not a malformed one.
        for value in ["\"99\"", "99", "W/\"99\"", "\"0\"", "\"9223372036854775808\"", "99999999999999999999999"] {
            let response = try await server.request(
                .PATCH,
                "/v1/movies/m_demo_heat",
                json: ["status": "watching"],
                token: token,
                headers: ["If-Match": value]
            )
            #expect(response.status == 412, "If-Match: \(value)")
        }
        var version = 1
        for value in ["\"1\"", "2", "W/\"3\"", "\"004\"", "*"] {
            let response = try await server.request(
                .PATCH,
                "/v1/movies/m_demo_heat",
                json: ["my_rating": version],
                token: token,
                headers: ["If-Match": value]
            )
            #expect(response.status == 200, "If-Match: \(value)")
            version += 1
        }
        await server.stop()
    }

    // MARK: §1 Calendar dates

    @Test func onlyRealCalendarDatesAreDatesWatched() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let impossible = [
            "2026-02-30", "2026-04-31", "2025-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "2026-01-00",
            "2026-01-32", "+202-01-01", "2026-1-01", "2026-01-1 ", "２０２６-01-01",
        ]
        for date in impossible {
            let response = try await server.request(
                .PATCH,
                "/v1/movies/m_demo_heat",
                json: ["date_watched": date],
                token: token
            )
            #expect(response.status == 400, "\(date)")
            #expect(response.errorDetails["field"] as? String == "date_watched", "\(date)")
        }
        let added = try await server.request(
            .POST,
            "/v1/movies",
            json: ["tmdb_id": 679, "title": "Aliens", "date_watched": "2026-02-30"],
            token: token
        )
        #expect(added.status == 400)
        #expect(added.errorDetails["field"] as? String == "date_watched")
        for date in ["2024-02-29", "2000-02-29", "2026-12-31", "2026-04-30", "2026-02-28"] {
            let response = try await server.request(
                .PATCH,
                "/v1/movies/m_demo_heat",
                json: ["date_watched": date],
                token: token
            )
            #expect(response.status == 200, "\(date)")
        }
        await server.stop()
    }

    // MARK: §1 Status codes: 405 and Allow

    @Test func allowListsExactlyTheMethodsThatAreRouted() async throws {
        let server = try await TestServer.start()
        let methods: [HTTPMethod] = [.GET, .HEAD, .POST, .PUT, .PATCH, .DELETE]
        let templates = Set(ServerRoutes.all.map(\.template)).sorted()
        #expect(templates.count > 40)
        for template in templates {
            let path = template.replacing(/\{[a-z_]+\}/, with: "sample-1")
            // No token and no body: routing answers before any handler could change something.
            var routed: Set<String> = []
            var allows: [String: Set<String>] = [:]
            for method in methods {
                let response = try await server.request(method, path)
                if response.status == 405 {
                    let allow = response.header("Allow") ?? ""
                    allows[method.rawValue] = Set(
                        allow.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    )
                } else {
                    routed.insert(method.rawValue)
                }
            }
            for (method, allowed) in allows {
                #expect(allowed == routed, "\(method) \(path): Allow \(allowed.sorted()), routed \(routed.sorted())")
            }
        }
        await server.stop()
    }

    // MARK: §1 Timestamps

    @Test func everyTimestampHasMilliseconds() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        server.clock.advance(by: 7)
        var answers: [String: TestResponse] = [:]
        func send(
            _ method: HTTPMethod,
            _ path: String,
            json: Any? = nil,
            body: Data? = nil,
            headers: [String: String] = [:]
        ) async throws {
            let response = try await server.request(
                method,
                path,
                json: json,
                body: body,
                token: token,
                headers: headers
            )
            #expect(response.status < 300, "\(method) \(path): \(response.status)")
            answers["\(method) \(path)"] = response
        }
        try await send(.POST, "/v1/movies", json: ["tmdb_id": 679, "title": "Aliens", "recommender": "Kim"])
        try await send(.PATCH, "/v1/movies/m_demo_heat", json: ["status": "watched", "date_watched": "2026-01-02"])
        try await send(.DELETE, "/v1/movies/m_demo_arrival")
        try await send(.PUT, "/v1/recipes/soup", json: ["title": "Soup"])
        try await send(
            .PUT,
            "/v1/recipes/soup/photo",
            body: Data([0x89, 0x50, 0x4E, 0x47]),
            headers: ["Content-Type": "image/png"]
        )
        try await send(.PUT, "/v1/saved-recipes/soup")
        try await send(.POST, "/v1/groups", json: ["name": "Cousins"])
        try await send(.POST, "/v1/groups/g_demo_family/members", json: ["display_name": "Baby", "managed": true])
        try await send(.PUT, "/v1/rounds/r_demo_round/votes/603", json: ["value": "up"])
        try await send(.POST, "/v1/rounds/r_demo_round/pick", json: ["tmdb_id": 129])
        try await send(.POST, "/v1/groups/g_demo_family/rounds", json: ["name": "Saturday"])
        for path in [
            "/v1/auth/me", "/v1/movies", "/v1/movies/changes", "/v1/people", "/v1/people/changes", "/v1/recipes",
            "/v1/recipes/changes", "/v1/saved-recipes", "/v1/saved-recipes/changes", "/v1/groups",
            "/v1/groups/g_demo_family", "/v1/groups/g_demo_family/changes", "/v1/groups/g_demo_family/rounds",
            "/v1/rounds/r_demo_round", "/v1/audio/artists", "/v1/audio/albums", "/v1/audio/albums/changes",
            "/v1/audio/collections", "/v1/audio/collections/changes",
        ] {
            try await send(.GET, path)
        }
        answers["POST /v1/auth/login"] = try await server.request(
            .POST,
            "/v1/auth/login",
            json: ["username": "sam", "password": "sam-password"]
        )
        answers["POST /admin/users"] = try await server.request(
            .POST,
            "/admin/users",
            json: ["username": "kim", "password": "kim-password"]
        )
        answers["PUT /admin/audio/collections/col_new"] = try await server.request(
            .PUT,
            "/admin/audio/collections/col_new",
            json: ["album_ids": ["alb_demo_1"]]
        )
        var checked = 0
        for (request, response) in answers.sorted(by: { $0.key < $1.key }) {
            for (path, value) in timestamps(in: response.json ?? [:], at: request) {
                checked += 1
                #expect(value.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(path): \(value)")
            }
        }
        #expect(checked > 50)
        await server.stop()
    }

    /// Every string under a key ending in `_at` (`created_at`, `picked_at`...), with where it is.
    private func timestamps(in json: Any, at path: String) -> [(String, String)] {
        switch json {
        case let object as [String: Any]:
            object.flatMap { key, value in
                if key.hasSuffix("_at"), let text = value as? String { return [("\(path).\(key)", text)] }
                return timestamps(in: value, at: "\(path).\(key)")
            }
        case let array as [Any]:
            array.enumerated().flatMap { timestamps(in: $1, at: "\(path)[\($0)]") }
        default:
            []
        }
    }

    // MARK: §9 People

    @Test func namesWithoutLatinLettersKeepDistinctPeople() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let names = ["Ёж", "Лиса", "ёж", "宮崎", "🎬", "🍿"]
        for (offset, name) in names.enumerated() {
            let added = try await server.request(
                .POST,
                "/v1/movies",
                json: ["tmdb_id": 1000 + offset, "title": "Film \(offset)", "recommender": name],
                token: token
            )
            #expect(added.status == 201)
        }
        let people = try await server.request(.GET, "/v1/people", token: token)
        var ids: [String: String] = [:]
        for person in people.object["people"] as? [[String: Any]] ?? [] {
            if let name = person["name"] as? String, let id = person["id"] as? String { ids[name] = id }
        }
        // "Ёж" and "ёж" are one person, named as on the first movie: case does not count.
        let distinct = ["Ёж", "Лиса", "宮崎", "🎬", "🍿"]
        #expect(Set(distinct.compactMap { ids[$0] }).count == distinct.count, "\(ids)")
        for name in distinct {
            let hash = try #require(await sha256Hex(Data(name.lowercased().utf8)))
            #expect(ids[name] == "person-" + hash.prefix(8), "\(name): \(ids)")
        }
        await server.stop()
    }
}
