import Foundation
import Testing

@Suite("Movies list and people")
struct MovieTests {
    @Test func addKeepsTheDetailsTheClientFetchedFromTMDB() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        // Aliens is not in the reference server's TMDB subset: the server stores what it is sent.
        let response = try await server.request(
            .POST,
            "/v1/movies",
            json: [
                "tmdb_id": 679, "title": "Aliens", "original_title": "Aliens", "year": 1986,
                "overview": "Ripley returns.", "genres": ["Action", "Thriller", "Science Fiction"],
                "director": "James Cameron", "runtime": 137, "imdb_id": "tt0090605",
                "poster_path": "/r1x5JGpyqZU8PYhbs4UcrO1Xb6x.jpg", "recommender": "Kim",
            ],
            token: token
        )
        #expect(response.status == 201)
        #expect(response.object["title"] as? String == "Aliens")
        #expect(response.object["year"] as? Int == 1986)
        #expect(response.object["runtime"] as? Int == 137)
        #expect(response.object["imdb_id"] as? String == "tt0090605")
        #expect(response.object["director"] as? String == "James Cameron")
        #expect(response.object["poster_path"] as? String == "/r1x5JGpyqZU8PYhbs4UcrO1Xb6x.jpg")
        #expect(response.object["status"] as? String == "want_to_watch")
        #expect(response.object["genres"] as? [String] == ["Action", "Thriller", "Science Fiction"])
        #expect(response.header("ETag") == "\"1\"")
        let id = try #require(response.object["id"] as? String)
        #expect(response.header("Location") == "/v1/movies/\(id)")
        let got = try await server.request(.GET, "/v1/movies/\(id)", token: token)
        #expect(got.object["recommender"] as? String == "Kim")
        #expect(got.object["overview"] as? String == "Ripley returns.")
        await server.stop()
    }

    @Test func addWithoutATitleOrWithBadDetailsIs400NamingTheField() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let cases: [([String: Any], String)] = [
            (["tmdb_id": 679], "title"),
            (["tmdb_id": 679, "title": ""], "title"),
            (["tmdb_id": 679, "title": "Aliens", "year": 86], "year"),
            (["tmdb_id": 679, "title": "Aliens", "imdb_id": "0090605"], "imdb_id"),
            (["tmdb_id": 679, "title": "Aliens", "imdb_id": "tt+5"], "imdb_id"),
            (["tmdb_id": 679, "title": "Aliens", "poster_path": "http://elsewhere/x.jpg"], "poster_path"),
            (["tmdb_id": 679, "title": "Aliens", "genres": "Action"], "genres"),
            (["tmdb_id": 679, "title": "Aliens", "runtime": -1], "runtime"),
            (["tmdb_id": 0, "title": "Aliens"], "tmdb_id"),
        ]
        for (body, field) in cases {
            let response = try await server.request(.POST, "/v1/movies", json: body, token: token)
            #expect(response.status == 400, "\(body)")
            #expect(response.errorDetails["field"] as? String == field, "\(body)")
        }
        await server.stop()
    }

    @Test func addingATitleAlreadyInTheListIs409WithTheCurrentEntry() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let response = try await server.request(
            .POST,
            "/v1/movies",
            json: ["tmdb_id": 949, "title": "Heat"],
            token: token
        )
        #expect(response.status == 409)
        #expect(response.errorCode == "movie_already_in_list")
        #expect((response.errorDetails["current"] as? [String: Any])?["id"] as? String == "m_demo_heat")
        await server.stop()
    }

    @Test func patchUpdatesAndStaleIfMatchIs412WithCurrent() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let patched = try await server.request(
            .PATCH,
            "/v1/movies/m_demo_heat",
            json: ["status": "watched", "my_rating": 9, "date_watched": "2025-01-04"],
            token: token,
            headers: ["If-Match": "\"1\""]
        )
        #expect(patched.status == 200)
        #expect(patched.object["version"] as? Int == 2)
        #expect(patched.object["status"] as? String == "watched")
        #expect(patched.header("ETag") == "\"2\"")
        let stale = try await server.request(
            .PATCH,
            "/v1/movies/m_demo_heat",
            json: ["my_rating": 3],
            token: token,
            headers: ["If-Match": "\"1\""]
        )
        #expect(stale.status == 412)
        let current = try #require(stale.errorDetails["current"] as? [String: Any])
        #expect(current["version"] as? Int == 2)
        #expect(current["my_rating"] as? Int == 9)
        let unconditional = try await server.request(
            .PATCH,
            "/v1/movies/m_demo_heat",
            json: ["my_rating": nil as Int? as Any],
            token: token
        )
        #expect(unconditional.status == 200)
        await server.stop()
    }

    @Test func patchRejectsUnknownFieldsAndBadValues() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let unknown = try await server.request(.PATCH, "/v1/movies/m_demo_heat", json: ["title": "Cold"], token: token)
        #expect(unknown.status == 400)
        #expect(unknown.errorCode == "unknown_field")
        for body: [String: Any] in [
            ["status": "lost"], ["my_rating": 11], ["my_rating": "9"], ["date_watched": "yesterday"],
        ] {
            let response = try await server.request(.PATCH, "/v1/movies/m_demo_heat", json: body, token: token)
            #expect(response.status == 400)
            #expect(response.errorCode == "invalid_field")
        }
        #expect(
            try await server.request(.PATCH, "/v1/movies/m_nope", json: ["status": "watched"], token: token).status
                == 404
        )
        await server.stop()
    }

    @Test func deleteLeavesATombstoneInTheChangesFeed() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let before = try await server.request(.GET, "/v1/movies/changes", token: token)
        #expect((before.object["changes"] as? [Any])?.count == 4)
        let cursor = try #require(before.object["cursor"] as? String)
        #expect(try await server.request(.DELETE, "/v1/movies/m_demo_arrival", token: token).status == 204)
        #expect(try await server.request(.DELETE, "/v1/movies/m_demo_arrival", token: token).status == 404)
        let after = try await server.request(.GET, "/v1/movies/changes?since=\(cursor)", token: token)
        let changes = try #require(after.object["changes"] as? [[String: Any]])
        #expect(changes.map { $0["type"] as? String } == ["delete"])
        let list = try await server.request(.GET, "/v1/movies?status=watched", token: token)
        #expect((list.object["movies"] as? [[String: Any]])?.map { $0["id"] as? String } == ["m_demo_dune"])
        await server.stop()
    }

    @Test func peopleFollowRecommenders() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let people = try await server.request(.GET, "/v1/people", token: token)
        let list = try #require(people.object["people"] as? [[String: Any]])
        let sam = try #require(list.first { $0["name"] as? String == "Sam" })
        #expect(sam["movie_count"] as? Int == 2)
        let cursor = try #require(
            try await server.request(.GET, "/v1/people/changes", token: token).object["cursor"] as? String
        )
        _ = try await server.request(.PATCH, "/v1/movies/m_demo_dune", json: ["recommender": "Sam"], token: token)
        let changes = try await server.request(.GET, "/v1/people/changes?since=\(cursor)", token: token)
        let types = (changes.object["changes"] as? [[String: Any]] ?? []).map {
            "\($0["type"] ?? "")-\($0["id"] ?? "")"
        }
        #expect(Set(types) == ["delete-alex", "upsert-sam"])
        await server.stop()
    }

    @Test func listsArePerUser() async throws {
        let server = try await TestServer.start()
        let sam = try await server.login("sam", "sam-password")
        let list = try await server.request(.GET, "/v1/movies", token: sam)
        #expect((list.object["movies"] as? [Any])?.isEmpty == true)
        #expect(try await server.request(.GET, "/v1/movies/m_demo_heat", token: sam).status == 404)
        await server.stop()
    }

    @Test func twoWritesInOneSecondCarryTimesWithMillisecondsInTheirOrder() async throws {
        let server = try await TestServer.start()
        let token = try await server.login()
        let first = try await server.request(.PATCH, "/v1/movies/m_demo_heat", json: ["my_rating": 7], token: token)
        server.clock.advance(by: 0.25)
        let second = try await server.request(.PATCH, "/v1/movies/m_demo_heat", json: ["my_rating": 8], token: token)
        let times = try [first, second].map { response in
            try #require(response.object["updated_at"] as? String)
        }
        #expect(times[0].hasSuffix(".000Z"), "\(times)")
        #expect(times[1].hasSuffix(".250Z"), "\(times)")
        let parsed = times.compactMap { try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) }
        #expect(parsed.count == 2 && parsed[1].timeIntervalSince(parsed[0]) == 0.25)
        await server.stop()
    }
}
