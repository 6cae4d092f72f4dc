import Foundation
import Hummingbird
import Logging
import Synchronization

/// A stand-in for TMDB's API v3 and its image host on a loopback port, written from
/// TMDB's public documentation (developer.themoviedb.org: the search and movie details
/// references, application authentication, errors, rate limiting and image basics).
///
/// It checks Ferry's TMDB client against TMDB's own wire format, independently of the
/// reference server's TMDB subset (`/tmdb/3`), and sees what the reference server does
/// not: how each request carried its credentials and whether the token leaked anywhere
/// else. It answers:
///
/// - `GET /3/search/movie`: `query`, `year`, `primary_release_year`, `include_adult` and
///   `page` (1...500); 20 results a page, most popular first.
/// - `GET /3/movie/{movie_id}`, with `append_to_response` honouring `external_ids` and
///   `credits`.
/// - `GET /t/p/{size}/{file_path}`: a small JPEG for a poster or backdrop of its films.
///
/// The API routes need the token as `Authorization: Bearer <token>` or as the `api_key`
/// query parameter; images need none. Errors carry TMDB's body
/// `{"status_code":…,"status_message":…,"success":false}`.
///
/// ```swift
/// let tmdb = try await TMDBStandIn.start()
/// settings.url = tmdb.apiURL
/// settings.imageBase = tmdb.imageBase
/// // …
/// await tmdb.stop()
/// ```
public final class TMDBStandIn: Sendable {
    /// How an API request carried its credentials.
    public enum Authentication: Sendable, Equatable {
        /// An `Authorization: Bearer` header only.
        case bearer
        /// An `api_key` query parameter only.
        case apiKey
        /// Both a bearer header and an `api_key`.
        case both
        /// Neither.
        case none
    }

    /// `http://127.0.0.1:<port>`.
    public let baseURL: String
    /// The API base, as `tmdb.url`: `baseURL` + `/3`.
    public var apiURL: String { baseURL + "/3" }
    /// The image base, as `tmdb.image_base`: images are at `imageBase/t/p/<size>/<file>`.
    public var imageBase: String { baseURL }
    /// The token the API routes accept.
    public let token: String

    private let ledger: Ledger
    private let server: Task<Void, any Error>

    private init(baseURL: String, token: String, ledger: Ledger, server: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.token = token
        self.ledger = ledger
        self.server = server
    }

    /// Starts a stand-in with every film of ``TMDBStandInFilm/all`` on an ephemeral
    /// loopback port; returns once it accepts connections.
    public static func start(token: String = "standin-token") async throws -> TMDBStandIn {
        try await start(token: token, films: TMDBStandInFilm.all)
    }

    /// Starts a stand-in with `films` on an ephemeral loopback port.
    static func start(
        token: String,
        films: [TMDBStandInFilm]
    ) async throws -> TMDBStandIn {
        let ledger = Ledger()
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let application = Application(
            responder: Responder(token: token, films: films, ledger: ledger),
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portSink.yield(channel.localAddress?.port ?? 0) },
            logger: Logger(label: "tmdb-stand-in", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let server = Task {
            defer { portSink.finish() }
            try await application.run()
        }
        for await port in ports {
            return TMDBStandIn(baseURL: "http://127.0.0.1:\(port)", token: token, ledger: ledger, server: server)
        }
        try await server.value
        throw StartFailure()
    }

    /// Stops the server and waits until it has stopped.
    public func stop() async {
        server.cancel()
        _ = try? await server.value
    }

    /// The next `count` API requests (not images) fail with `status`, before any check of
    /// the token: a 429 carries TMDB's rate-limit body (status_code 25) and `Retry-After:
    /// retryAfter` when given; a 5xx carries TMDB's body for that status.
    public func failNext(status: Int, count: Int = 1, retryAfter: Int? = nil) {
        ledger.state.withLock {
            $0.failure = count > 0 ? Failure(status: status, remaining: count, retryAfter: retryAfter) : nil
        }
    }

    /// Every request received, in order, as method and path without the query:
    /// `GET /3/search/movie`.
    public func requests() -> [String] {
        ledger.state.withLock { $0.requests.map { "\($0.method) \($0.path)" } }
    }

    /// How many requests had a path starting with `pathPrefix`, such as `/3/movie/`.
    public func requestCount(_ pathPrefix: String) -> Int {
        ledger.state.withLock { $0.requests.count(where: { $0.path.hasPrefix(pathPrefix) }) }
    }

    /// How each API request carried its credentials, in order.
    public func authentications() -> [Authentication] {
        ledger.state.withLock { $0.authentications }
    }

    /// The requests (`GET /path`) that carried the token somewhere it does not belong: in
    /// an image request at all, or in an API request anywhere but the `Authorization`
    /// header and the `api_key` parameter.
    public func tokenLeaks() -> [String] {
        ledger.state.withLock { $0.leaks }
    }

    /// The stand-in stopped before it listened.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String { "the TMDB stand-in stopped before it listened" }
    }

    /// Failures to answer with, set by `failNext`.
    struct Failure: Sendable {
        var status: Int
        var remaining: Int
        var retryAfter: Int?
    }

    /// What the stand-in saw and what it is told to do, shared with its responder.
    final class Ledger: Sendable {
        struct State: Sendable {
            var requests: [(method: String, path: String)] = []
            var authentications: [Authentication] = []
            var leaks: [String] = []
            var failure: Failure?
        }

        let state = Mutex(State())

        /// The failure the next API request gets, if any; counts it down.
        func takeFailure() -> Failure? {
            state.withLock { state in
                guard var failure = state.failure else { return nil }
                failure.remaining -= 1
                state.failure = failure.remaining > 0 ? failure : nil
                return failure
            }
        }
    }
}

// MARK: - Answering

extension TMDBStandIn {
    /// Answers every request: routing, the request log, test failures and authentication.
    struct Responder: HTTPResponder {
        typealias Context = BasicRequestContext

        let token: String
        let films: [TMDBStandInFilm]
        let ledger: Ledger

        /// TMDB's results per page of `search/movie`.
        static let pageSize = 20
        /// The sizes TMDB's image host serves (`/3/configuration`'s `images` sizes).
        static let imageSizes: Set<String> = [
            "w45", "w92", "w154", "w185", "w300", "w342", "w500", "w780", "w1280", "h632", "original",
        ]

        func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
            let path = request.uri.path
            let query = Self.queryItems(request.uri.query)
            let parts = path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
            let isAPI = parts.first == "3"
            record(request, path: path, query: query, isAPI: isAPI)

            // The stand-in serves TMDB's read routes only.
            guard request.method == .get else { return Self.error(.notFound) }
            if parts.count == 4, parts[0] == "t", parts[1] == "p" { return image(size: parts[2], file: parts[3]) }
            guard isAPI else { return Self.error(.notFound) }
            if let failure = ledger.takeFailure() { return Self.failure(failure) }
            guard authorized(request, query: query) else { return Self.error(.invalidAPIKey) }
            switch parts.dropFirst().count {
            case 2 where parts[1] == "search" && parts[2] == "movie":
                return search(query)
            case 2 where parts[1] == "movie":
                return details(parts[2], query: query)
            default:
                return Self.error(.notFound)
            }
        }

        /// `GET /3/search/movie`: a film matches when every word of the query is in its title,
        /// or every one in its original title (folded as `normalized`), and its release year
        /// is `year` and `primary_release_year` when given (a stand-in film has one release
        /// date, so the two filters agree). `language` and `region` are ignored.
        func search(_ query: [String: String]) -> Response {
            guard let page = Int(query["page"] ?? "1"), (1...500).contains(page) else {
                return Self.error(.invalidPage)
            }
            let words = Self.words(query["query"] ?? "")
            let year = query["year"].flatMap { Int($0) }
            let primaryYear = query["primary_release_year"].flatMap { Int($0) }
            let includeAdult = query["include_adult"] == "true"
            // An empty or missing query finds nothing (TMDB answers 200 with no results).
            let matches =
                words.isEmpty
                ? []
                : films.filter { film in
                    (includeAdult || !film.adult)
                        && (year == nil || film.year == year)
                        && (primaryYear == nil || film.year == primaryYear)
                        && [film.title, film.originalTitle].contains { title in
                            let text = Self.normalized(title)
                            return words.allSatisfy { text.contains($0) }
                        }
                }
                .sorted { ($0.popularity, $1.id) > ($1.popularity, $0.id) }
            let results = matches.dropFirst((page - 1) * Self.pageSize).prefix(Self.pageSize)
            return Self.json([
                "page": page,
                "results": results.map(\.searchResult),
                "total_pages": max(1, (matches.count + Self.pageSize - 1) / Self.pageSize),
                "total_results": matches.count,
            ])
        }

        /// `GET /3/movie/{movie_id}`; an id that is not a number, or no film's, is not found.
        func details(_ id: String, query: [String: String]) -> Response {
            guard let id = Int(id), let film = films.first(where: { $0.id == id }) else {
                return Self.error(.notFound)
            }
            let appended = Set(
                (query["append_to_response"] ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            )
            var body = film.details
            if appended.contains("external_ids") { body["external_ids"] = film.externalIDs }
            if appended.contains("credits") { body["credits"] = film.credits }
            return Self.json(body)
        }

        /// `GET /t/p/{size}/{file_path}`: a JPEG for a poster or backdrop one of the films has.
        func image(size: String, file: String) -> Response {
            let path = "/" + file
            guard Self.imageSizes.contains(size),
                films.contains(where: { $0.posterPath == path || $0.backdropPath == path })
            else {
                return Response(status: .notFound)
            }
            return Response(
                status: .ok,
                headers: [.contentType: "image/jpeg"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: Self.jpeg(comment: "\(size)\(path)")))
            )
        }

        /// The token as a bearer header or an `api_key` parameter; either one right will do.
        func authorized(_ request: Request, query: [String: String]) -> Bool {
            request.headers[.authorization] == "Bearer \(token)" || query["api_key"] == token
        }

        /// Logs the request, how it carried credentials and whether the token leaked.
        func record(_ request: Request, path: String, query: [String: String], isAPI: Bool) {
            let hasBearer = request.headers[.authorization] != nil
            let hasKey = query["api_key"] != nil
            let authentication: Authentication =
                switch (hasBearer, hasKey) {
                case (true, true): .both
                case (true, false): .bearer
                case (false, true): .apiKey
                case (false, false): .none
                }
            let places =
                request.headers.filter { !(isAPI && $0.name == .authorization) }.map(\.value)
                + query.filter { !(isAPI && $0.key == "api_key") }.map(\.value) + [path]
            let leaked = places.contains { $0.contains(token) }
            ledger.state.withLock { state in
                state.requests.append((request.method.rawValue, path))
                if isAPI { state.authentications.append(authentication) }
                if leaked { state.leaks.append("\(request.method.rawValue) \(path)") }
            }
        }

        // MARK: Wire helpers

        /// The query's items, decoded as a form (`+` is a space); the first of a name wins.
        static func queryItems(_ query: String?) -> [String: String] {
            var items: [String: String] = [:]
            for pair in (query ?? "").split(separator: "&") {
                let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decoded = halves.map {
                    $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
                }
                if items[decoded[0]] == nil { items[decoded[0]] = decoded.count > 1 ? decoded[1] : "" }
            }
            return items
        }

        /// Case-, diacritic- and compatibility-folded text (`Alien³` → `alien3`, `Cité` → `cite`).
        static func normalized(_ text: String) -> String {
            text.decomposedStringWithCompatibilityMapping.folding(
                options: [.caseInsensitive, .diacriticInsensitive],
                locale: nil
            )
        }

        /// A query's words: its runs of letters and digits, folded.
        static func words(_ query: String) -> [String] {
            normalized(query).components(separatedBy: CharacterSet.alphanumerics.inverted).filter { !$0.isEmpty }
        }

        /// A JSON answer, keys sorted and slashes unescaped (`"/abc.jpg"`, as TMDB writes them).
        static func json(_ object: [String: Any], status: Int = 200, headers extra: HTTPFields = [:]) -> Response {
            let data =
                (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
                ?? Data()
            var headers: HTTPFields = [.contentType: "application/json;charset=utf-8"]
            headers.append(contentsOf: extra)
            return Response(
                status: HTTPResponse.Status(code: status),
                headers: headers,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
            )
        }

        /// TMDB's error body for `error`.
        static func error(_ error: TMDBStandInStatus, headers: HTTPFields = [:]) -> Response {
            json(
                ["status_code": error.code, "status_message": error.message, "success": false],
                status: error.httpStatus,
                headers: headers
            )
        }

        /// The answer `failNext` asked for.
        static func failure(_ failure: Failure) -> Response {
            var headers: HTTPFields = [:]
            if failure.status == 429, let retryAfter = failure.retryAfter { headers[.retryAfter] = String(retryAfter) }
            return error(.forStatus(failure.status), headers: headers)
        }

        /// A 1×1 grey baseline JPEG carrying `comment` (a COM segment), so that every image
        /// has bytes of its own and any JPEG decoder reads it.
        static func jpeg(comment: String) -> [UInt8] {
            let text = Array(comment.utf8.prefix(1000))
            var bytes: [UInt8] = [0xFF, 0xD8]  // SOI
            bytes += [
                0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
                0x00,
            ]  // APP0: JFIF
            bytes += [0xFF, 0xFE, UInt8((text.count + 2) >> 8), UInt8((text.count + 2) & 0xFF)]  // COM
            bytes += text
            bytes += [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)  // DQT: all ones
            bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00]  // SOF0: 1×1, grey
            for tableClass: UInt8 in [0x00, 0x10] {
                // DHT, DC then AC: one code, "0", for symbol 0 (a DC difference of 0; the end of block).
                bytes += [0xFF, 0xC4, 0x00, 0x14, tableClass, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
            }
            bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]  // SOS
            bytes += [0x3F]  // DC 0, end of block, padded with ones
            bytes += [0xFF, 0xD9]  // EOI
            return bytes
        }
    }
}

/// One of TMDB's documented errors: the HTTP status, TMDB's `status_code` and its message.
struct TMDBStandInStatus: Sendable {
    let httpStatus: Int
    let code: Int
    let message: String

    static let invalidAPIKey = Self(
        httpStatus: 401,
        code: 7,
        message: "Invalid API key: You must be granted a valid key."
    )
    static let notFound = Self(httpStatus: 404, code: 34, message: "The resource you requested could not be found.")
    static let invalidPage = Self(
        httpStatus: 400,
        code: 22,
        message: "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer."
    )
    static let rateLimited = Self(
        httpStatus: 429,
        code: 25,
        message: "Your request count (#) is over the allowed limit of (40)."
    )
    static let internalError = Self(
        httpStatus: 500,
        code: 11,
        message: "Internal error: Something went wrong, contact TMDB."
    )
    static let backendUnreachable = Self(httpStatus: 502, code: 43, message: "Couldn't connect to the backend server.")
    static let serviceOffline = Self(
        httpStatus: 503,
        code: 9,
        message: "Service offline: This service is temporarily offline, try again later."
    )
    static let backendTimeout = Self(
        httpStatus: 504,
        code: 24,
        message: "Your request to the backend server timed out. Try again."
    )

    /// TMDB's error for an HTTP status; a status TMDB documents no error for gets the
    /// nearest kind (invalid parameters for a 4xx, an internal error for a 5xx).
    static func forStatus(_ status: Int) -> Self {
        let known = [
            invalidAPIKey, notFound, invalidPage, rateLimited, internalError, backendUnreachable, serviceOffline,
            backendTimeout,
        ]
        if let match = known.first(where: { $0.httpStatus == status }) { return match }
        if status >= 500 { return Self(httpStatus: status, code: internalError.code, message: internalError.message) }
        return Self(httpStatus: status, code: 5, message: "Invalid parameters: Your request parameters are incorrect.")
    }
}

// MARK: - TMDB's JSON

extension TMDBStandInFilm {
    /// The film as one of `search/movie`'s results.
    var searchResult: [String: Any] {
        [
            "adult": adult,
            "backdrop_path": Self.orNull(backdropPath),
            "genre_ids": genres.map(\.id),
            "id": id,
            "original_language": originalLanguage,
            "original_title": originalTitle,
            "overview": overview,
            "popularity": popularity,
            "poster_path": Self.orNull(posterPath),
            "release_date": releaseDate,
            "title": title,
            "video": false,
            "vote_average": voteAverage,
            "vote_count": voteCount,
        ]
    }

    /// The film as `movie/{movie_id}` answers, before anything is appended.
    var details: [String: Any] {
        [
            "adult": adult,
            "backdrop_path": Self.orNull(backdropPath),
            "budget": budget,
            "genres": genres.map { ["id": $0.id, "name": $0.name] },
            "homepage": homepage,
            "id": id,
            "imdb_id": Self.orNull(imdbID),
            "original_language": originalLanguage,
            "original_title": originalTitle,
            "overview": overview,
            "popularity": popularity,
            "poster_path": Self.orNull(posterPath),
            "release_date": releaseDate,
            "revenue": revenue,
            "runtime": runtime,
            "status": status,
            "tagline": tagline,
            "title": title,
            "video": false,
            "vote_average": voteAverage,
            "vote_count": voteCount,
        ]
    }

    /// `append_to_response=external_ids`.
    var externalIDs: [String: Any] {
        [
            "imdb_id": Self.orNull(imdbID),
            "wikidata_id": NSNull(),
            "facebook_id": NSNull(),
            "instagram_id": NSNull(),
            "twitter_id": NSNull(),
        ]
    }

    /// `append_to_response=credits`: the cast in billing order, then the crew.
    var credits: [String: Any] {
        [
            "cast": cast.enumerated().map { index, member in
                [
                    "adult": false,
                    "gender": 0,
                    "id": member.id,
                    "known_for_department": "Acting",
                    "name": member.name,
                    "original_name": member.name,
                    "popularity": 1.5,
                    "profile_path": NSNull(),
                    "cast_id": index + 1,
                    "character": member.character,
                    "credit_id": creditID(kind: 1, index: index),
                    "order": index,
                ] as [String: Any]
            },
            "crew": crew.enumerated().map { index, member in
                [
                    "adult": false,
                    "gender": 0,
                    "id": member.id,
                    "known_for_department": member.department,
                    "name": member.name,
                    "original_name": member.name,
                    "popularity": 1.5,
                    "profile_path": NSNull(),
                    "credit_id": creditID(kind: 2, index: index),
                    "department": member.department,
                    "job": member.job,
                ] as [String: Any]
            },
        ]
    }

    /// A credit id shaped as TMDB's (24 hex digits), stable for the film and the credit.
    private func creditID(kind: Int, index: Int) -> String {
        String(format: "%08x%08x%08x", id, kind, index)
    }

    private static func orNull(_ value: String?) -> Any { value.map { $0 as Any } ?? NSNull() }
}
