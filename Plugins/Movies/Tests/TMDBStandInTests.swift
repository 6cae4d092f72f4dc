import FerryServerTesting
import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

@testable import MoviesPlugin

/// Ferry's TMDB client against the TMDB stand-in: the stand-in answers in TMDB's wire
/// format, and the client reads it. Each test runs a stand-in of its own.
@Suite struct TMDBStandInTests {
    @Test func searchFindsAliensByTitleAndYear() async throws {
        try await withStandIn { tmdb in
            let results = try await client(tmdb).search(title: "aliens", year: 1986)
            #expect(results.first?.id == 679)
            #expect(results.first?.year == 1986)
            #expect(results.first?.posterPath == "/r1x5JGpyqZU8PYhbs4UcrO1Xb6x.jpg")
            #expect(tmdb.requests() == ["GET /3/search/movie"])
            #expect(tmdb.authentications() == [.bearer])
            #expect(tmdb.tokenLeaks().isEmpty)
        }
    }

    @Test func detailsGiveDirectorAndIMDbID() async throws {
        try await withStandIn { tmdb in
            let details = try await client(tmdb).details(8077)
            #expect(details.title == "Alien³")
            #expect(details.director == "David Fincher")
            #expect(details.imdb == "tt0103644")
            #expect(details.releaseDate == "1992-05-22")
            #expect(tmdb.requestCount("/3/movie/") == 1)
        }
    }

    @Test(arguments: TMDBSettings.Auth.allCases)
    func wrongTokenNamesTheSetting(auth: TMDBSettings.Auth) async throws {
        try await withStandIn { tmdb in
            let error = await #expect(throws: FerryError.self) {
                try await client(tmdb, token: "not-the-token", auth: auth).search(title: "aliens", year: nil)
            }
            #expect(error?.code == .configuration)
            #expect(error?.message.contains("tmdb.token") == true)
            #expect(error?.message.contains("Invalid API key") == true)

            let results = try await client(tmdb, auth: auth).search(title: "aliens", year: nil)
            #expect(results.first?.id == 679)
            let sent: TMDBStandIn.Authentication = auth == .bearer ? .bearer : .apiKey
            #expect(tmdb.authentications() == [sent, sent])
        }
    }

    @Test func detailsOfAnUnknownIDThrow() async throws {
        try await withStandIn { tmdb in
            let error = await #expect(throws: FerryError.self) { try await client(tmdb).details(999_999_999) }
            #expect(error?.code == .rejected)
            #expect(error?.message.contains("could not be found") == true)
        }
    }

    @Test func theYearTellsTwoCrashesApart() async throws {
        try await withStandIn { tmdb in
            let in2004 = try await ids(tmdb, "crash", 2004)
            let in1996 = try await ids(tmdb, "crash", 1996)
            let anyYear = try await ids(tmdb, "Crash")
            #expect(in2004.first == 1640)
            #expect(in1996.first == 884)
            #expect(anyYear == [1640, 884])
        }
    }

    @Test func searchFoldsCaseDiacriticsAndOriginalTitles() async throws {
        try await withStandIn { tmdb in
            let originalTitle = try await ids(tmdb, "CITE des Enfants")
            let japanese = try await ids(tmdb, "もののけ姫")
            let superscript = try await ids(tmdb, "alien 3")
            #expect(originalTitle == [902])
            #expect(japanese == [128])
            #expect(superscript == [8077])
            let undated = try await client(tmdb).search(title: "lighthouse", year: nil)
            #expect(undated.map(\.id) == [9_000_001])
            #expect(undated.first?.releaseDate == "")
        }
    }

    @Test func aShortRateLimitIsWaitedOut() async throws {
        try await withStandIn { tmdb in
            let clock = TestClock()
            tmdb.failNext(status: 429, count: 1, retryAfter: 2)
            let rateLimited = client(tmdb, clock: clock)
            let search = Task { try await rateLimited.search(title: "aliens", year: nil) }
            while clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
            clock.advance(by: 2)
            let results = try await search.value
            #expect(results.first?.id == 679)
            #expect(tmdb.requestCount("/3/search/movie") == 2)
        }
    }

    @Test func answersInTMDBsWireFormat() async throws {
        try await withStandIn { tmdb in
            let transport = HTTPTransport(baseURL: tmdb.baseURL)
            let bearer = [("Authorization", "Bearer \(tmdb.token)")]

            let page = try await object(
                transport.send(
                    HTTPRequest(
                        "GET",
                        tmdb.apiURL + "/search/movie",
                        query: [("query", "aliens")],
                        headers: bearer,
                        authenticated: false
                    )
                )
            )
            #expect(Set(page.keys) == ["page", "results", "total_pages", "total_results"])
            let result = try #require((page["results"] as? [[String: Any]])?.first)
            #expect(
                Set(result.keys) == [
                    "adult", "backdrop_path", "genre_ids", "id", "original_language", "original_title", "overview",
                    "popularity", "poster_path", "release_date", "title", "video", "vote_average", "vote_count",
                ]
            )

            let details = try await object(
                transport.send(
                    HTTPRequest(
                        "GET",
                        tmdb.apiURL + "/movie/9000001",
                        query: [("append_to_response", "external_ids,credits")],
                        headers: bearer,
                        authenticated: false
                    )
                )
            )
            #expect(details["release_date"] as? String == "")
            #expect(details["poster_path"] is NSNull)
            #expect(details["imdb_id"] is NSNull)
            #expect(
                (details["external_ids"] as? [String: Any])?.keys.sorted() == [
                    "facebook_id", "imdb_id", "instagram_id", "twitter_id", "wikidata_id",
                ]
            )
            #expect((details["credits"] as? [String: Any])?.keys.sorted() == ["cast", "crew"])

            let refused = await #expect(throws: RemoteFailure.self) {
                try await transport.send(HTTPRequest("GET", tmdb.apiURL + "/movie/679", authenticated: false))
            }
            #expect(refused?.status == 401)
            #expect(
                refused.map { String(decoding: $0.body, as: UTF8.self) }
                    == #"{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}"#
            )

            let badPage = await #expect(throws: RemoteFailure.self) {
                try await transport.send(
                    HTTPRequest(
                        "GET",
                        tmdb.apiURL + "/search/movie",
                        query: [("query", "x"), ("page", "501")],
                        headers: bearer,
                        authenticated: false
                    )
                )
            }
            #expect(badPage?.status == 400)
            let badPageBody = try badPage.map { try object($0.body) }
            #expect(badPageBody?["status_code"] as? Int == 22)
        }
    }

    @Test func postersNeedNoToken() async throws {
        try await withStandIn { tmdb in
            let transport = HTTPTransport(baseURL: tmdb.baseURL)
            let poster = try await transport.send(
                HTTPRequest("GET", tmdb.imageBase + "/t/p/w342/r1x5JGpyqZU8PYhbs4UcrO1Xb6x.jpg", authenticated: false)
            )
            #expect(poster.headers["content-type"] == "image/jpeg")
            #expect(poster.body.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
            #expect(poster.body.suffix(2) == Data([0xFF, 0xD9]))

            let missing = await #expect(throws: RemoteFailure.self) {
                try await transport.send(
                    HTTPRequest("GET", tmdb.imageBase + "/t/p/w342/nothing.jpg", authenticated: false)
                )
            }
            #expect(missing?.status == 404)
            #expect(tmdb.authentications().isEmpty)
        }
    }

    // MARK: Helpers

    /// Runs `body` with a stand-in of its own, stopped afterwards whatever happens.
    func withStandIn(_ body: (TMDBStandIn) async throws -> Void) async throws {
        let tmdb = try await TMDBStandIn.start()
        do {
            try await body(tmdb)
        } catch {
            await tmdb.stop()
            throw error
        }
        await tmdb.stop()
    }

    /// Ferry's TMDB client pointed at `tmdb`.
    func client(
        _ tmdb: TMDBStandIn,
        token: String? = nil,
        auth: TMDBSettings.Auth = .bearer,
        clock: any KernelClock = TestClock()
    ) -> TMDBClient {
        var settings = TMDBSettings()
        settings.url = tmdb.apiURL
        settings.imageBase = tmdb.imageBase
        settings.token = token ?? tmdb.token
        settings.auth = auth
        return TMDBClient(settings: settings, transport: HTTPTransport(baseURL: tmdb.baseURL, clock: clock))
    }

    /// The ids `search/movie` finds for `title` (and `year`), in TMDB's order.
    func ids(_ tmdb: TMDBStandIn, _ title: String, _ year: Int? = nil) async throws -> [Int] {
        try await client(tmdb).search(title: title, year: year).map(\.id)
    }

    func object(_ response: HTTPResponse) throws -> [String: Any] { try object(response.body) }

    func object(_ body: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }
}
