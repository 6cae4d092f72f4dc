import Foundation
import SyncKernel

/// A client of the TMDB API v3: `search/movie` and `movie/{id}` with
/// `append_to_response=external_ids,credits`.
///
/// It speaks to whatever `tmdb.url` names: the reference server's subset (`/tmdb/3`,
/// resolved against `server`) or `https://api.themoviedb.org/3`. The token goes as a
/// bearer header or an `api_key` parameter, never as Ferry's own credentials, and never
/// into a log line (the transport logs paths without queries). The transport waits out a
/// 429 whose `Retry-After` is at most `max_retry_wait`; a longer one is thrown so that the
/// outbox retries when the remote allows.
struct TMDBClient: Sendable {
    let settings: TMDBSettings
    let transport: HTTPTransport
    /// How many 429s in a row one call waits out before giving up to the outbox.
    var maxRateLimitRetries = 3

    /// Searches movies by title (and release year when given); the first page, most popular first.
    func search(title: String, year: Int?) async throws -> [TMDBSearchResult] {
        var query = [("query", title), ("include_adult", "false"), ("page", "1")]
        if let year { query.append(("year", String(year))) }
        let page: TMDBSearchPage = try await get("/search/movie", query: query)
        return page.results
    }

    /// A movie's details with its external ids (IMDb) and credits (director).
    func details(_ id: Int) async throws -> TMDBMovieDetails {
        try await get("/movie/\(id)", query: [("append_to_response", "external_ids,credits")])
    }

    private func get<T: Decodable>(_ path: String, query: [(String, String)]) async throws -> T {
        var query = query
        var headers: [(String, String)] = []
        switch settings.auth {
        case .bearer: headers.append(("Authorization", "Bearer \(settings.token)"))
        case .apiKey: query.append(("api_key", settings.token))
        }
        var base = settings.url
        while base.hasSuffix("/") { base.removeLast() }
        var request = HTTPRequest("GET", base + path, query: query, headers: headers, authenticated: false)
        request.rateLimitWait = RateLimitWait(times: maxRateLimitRetries, longest: settings.maxRetryWait.value)
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch let failure as RemoteFailure {
            throw Self.explain(failure, path: path)
        }
        do {
            return try response.decode(T.self)
        } catch {
            // A page a proxy put in its place, or an answer cut short: the next attempt
            // asks again, rather than leaving the movie for a person.
            throw FerryError(
                .remoteUnavailable,
                "TMDB sent an answer to \(path) that could not be read (\(error)); it is asked again later",
                underlying: error
            )
        }
    }

    /// TMDB's refusals become errors that say what to fix; its 401 is a configuration
    /// problem, not a Ferry login, so it must not hold the plugin's queue for a login.
    static func explain(_ failure: RemoteFailure, path: String) -> any Error {
        let reason = Self.reason(of: failure)
        switch failure.status {
        case 401:
            return FerryError(
                .configuration,
                "TMDB refused the configured token (\(reason)); set plugins.movies.tmdb.token (and tmdb.auth: bearer or api_key) in config.yaml"
            )
        case 404:
            return FerryError(.rejected, "TMDB has no \(path) (\(reason))")
        case 429, 500...599, 408:
            return failure
        default:
            return FerryError(.rejected, "TMDB refused \(path): \(reason)")
        }
    }

    /// TMDB's own reason: the `status_message` of its error shape, else the kernel's reading.
    static func reason(of failure: RemoteFailure) -> String {
        struct TMDBError: Decodable { let status_message: String }
        guard let error = try? JSONDecoder().decode(TMDBError.self, from: failure.body) else { return failure.reason }
        return "\(failure.status): \(error.status_message)"
    }
}
