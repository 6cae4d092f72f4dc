import Foundation
import Testing

@Suite("TMDB-compatible subset")
struct TMDBTests {
    let auth = ["Authorization": "Bearer ferry-demo-tmdb-token"]

    @Test func searchFindsHeatByTitleAndYear() async throws {
        let server = try await TestServer.start(seedDemo: false)
        let response = try await server.request(.GET, "/tmdb/3/search/movie?query=Heat&year=1995&page=1", headers: auth)
        #expect(response.status == 200)
        #expect(response.object["page"] as? Int == 1)
        #expect(response.object["total_results"] as? Int == 1)
        #expect(response.object["total_pages"] as? Int == 1)
        let result = try #require((response.object["results"] as? [[String: Any]])?.first)
        #expect(result["id"] as? Int == 949)
        #expect(result["title"] as? String == "Heat")
        #expect(result["original_title"] as? String == "Heat")
        #expect(result["release_date"] as? String == "1995-12-15")
        #expect(result["genre_ids"] as? [Int] == [28, 80, 18, 53])
        #expect(result["poster_path"] as? String == "/ferry-poster-949.png")
        #expect(result["popularity"] is Double)
        #expect(result["vote_average"] is Double)
        await server.stop()
    }

    @Test func ambiguousTitlesReturnSeveralAndNoMatchReturnsNone() async throws {
        let server = try await TestServer.start(seedDemo: false)
        let heat = try await server.request(.GET, "/tmdb/3/search/movie?query=heat", headers: auth)
        #expect(heat.object["total_results"] as? Int == 2)
        let solaris = try await server.request(.GET, "/tmdb/3/search/movie?query=Solaris", headers: auth)
        #expect(
            Set((solaris.object["results"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }) == [593, 2103]
        )
        let dune = try await server.request(
            .GET,
            "/tmdb/3/search/movie?query=Dune&primary_release_year=2021",
            headers: auth
        )
        #expect((dune.object["results"] as? [[String: Any]])?.map { $0["id"] as? Int } == [438631])
        let amelie = try await server.request(.GET, "/tmdb/3/search/movie?query=amelie", headers: auth)
        #expect(amelie.object["total_results"] as? Int == 1)
        let none = try await server.request(.GET, "/tmdb/3/search/movie?query=Zzyzx%20Road", headers: auth)
        #expect(none.status == 200)
        #expect(none.object["total_results"] as? Int == 0)
        #expect((none.object["results"] as? [Any])?.isEmpty == true)
        let badPage = try await server.request(.GET, "/tmdb/3/search/movie?query=Heat&page=0", headers: auth)
        #expect(badPage.status == 400)
        #expect(badPage.object["success"] as? Bool == false)
        await server.stop()
    }

    @Test func detailsWithAppendedExternalIdsAndCredits() async throws {
        let server = try await TestServer.start(seedDemo: false)
        let response = try await server.request(
            .GET,
            "/tmdb/3/movie/949?append_to_response=external_ids,credits",
            headers: auth
        )
        #expect(response.status == 200)
        #expect(response.object["imdb_id"] as? String == "tt0113277")
        #expect(response.object["runtime"] as? Int == 170)
        let genres = try #require(response.object["genres"] as? [[String: Any]])
        #expect(genres.first?["id"] as? Int == 28)
        #expect(genres.first?["name"] as? String == "Action")
        #expect((response.object["external_ids"] as? [String: Any])?["imdb_id"] as? String == "tt0113277")
        let credits = try #require(response.object["credits"] as? [String: Any])
        let crew = try #require(credits["crew"] as? [[String: Any]])
        #expect(crew.first { $0["job"] as? String == "Director" }?["name"] as? String == "Michael Mann")
        #expect((credits["cast"] as? [[String: Any]])?.first?["name"] as? String == "Al Pacino")
        let plain = try await server.request(.GET, "/tmdb/3/movie/949", headers: auth)
        #expect(plain.object["credits"] == nil)
        let external = try await server.request(.GET, "/tmdb/3/movie/2103/external_ids", headers: auth)
        #expect(external.object["imdb_id"] as? String == "tt0307479")
        let credits2 = try await server.request(.GET, "/tmdb/3/movie/841/credits", headers: auth)
        #expect(((credits2.object["crew"] as? [[String: Any]])?.first?["name"] as? String) == "David Lynch")
        await server.stop()
    }

    @Test func authByBearerOrApiKeyElseTMDBError() async throws {
        let server = try await TestServer.start(seedDemo: false)
        let none = try await server.request(.GET, "/tmdb/3/movie/949")
        #expect(none.status == 401)
        #expect(none.object["status_code"] as? Int == 7)
        #expect(none.object["status_message"] as? String == "Invalid API key: You must be granted a valid key.")
        #expect(none.object["success"] as? Bool == false)
        #expect(
            try await server.request(.GET, "/tmdb/3/movie/949", headers: ["Authorization": "Bearer wrong"]).status
                == 401
        )
        #expect(try await server.request(.GET, "/tmdb/3/movie/949?api_key=ferry-demo-tmdb-token").status == 200)
        let missing = try await server.request(.GET, "/tmdb/3/movie/1", headers: auth)
        #expect(missing.status == 404)
        #expect(missing.object["status_code"] as? Int == 34)
        await server.stop()
    }

    @Test func theAcceptedTokenIsConfigurable() async throws {
        let server = try await TestServer.start(seedDemo: false) { $0.tmdbAccessToken = "other" }
        #expect(try await server.request(.GET, "/tmdb/3/movie/949", headers: auth).status == 401)
        #expect(
            try await server.request(.GET, "/tmdb/3/movie/949", headers: ["Authorization": "Bearer other"]).status
                == 200
        )
        await server.stop()
    }

    @Test func postersArePNGBytes() async throws {
        let server = try await TestServer.start(seedDemo: false)
        let poster = try await server.request(.GET, "/tmdb/t/p/w500/ferry-poster-949.png")
        #expect(poster.status == 200)
        #expect(poster.header("Content-Type") == "image/png")
        #expect(Array(poster.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(Int(poster.header("Content-Length") ?? "") == poster.body.count)
        let again = try await server.request(.GET, "/tmdb/t/p/original/ferry-poster-949.png")
        #expect(again.body == poster.body)
        #expect(try await server.request(.GET, "/tmdb/t/p/w500/nothing.png").status == 404)
        #expect(try await server.request(.GET, "/tmdb/t/p/w500/..%2F..%2Fetc%2Fpasswd").status == 400)
        await server.stop()
    }
}
