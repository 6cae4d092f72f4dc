import Foundation
import SyncKernel
import SyncKernelTesting

/// TMDB's API v3 and its image host in a simulation, answered in process: the movies
/// plugin enriches titles through it as it would through api.themoviedb.org, on the same
/// links and faults as the Ferry server, without a socket.
///
/// It speaks TMDB's wire format for what the plugin asks (as `TMDBStandIn` does over
/// loopback): `GET /3/search/movie` (`query`, `year`, `page`; every word of the query in
/// the title or the original title, most popular first), `GET /3/movie/{id}` with
/// `append_to_response=external_ids,credits`, and `GET /t/p/{size}/{file}` for posters.
/// The API needs the token as a bearer header or an `api_key`; errors carry TMDB's body.
struct SimulatedTMDB: SimulatedServer {
    /// The hosts it answers for: the API and the images.
    static let apiHost = "api.themoviedb.org"
    static let imageHost = "image.tmdb.org"
    static let token = "simulated-tmdb-token"

    func respond(method: String, path: String, headers: [(String, String)], body: Data?) async throws -> HTTPResponse {
        let (route, query) = Self.split(path)
        let parts = route.split(separator: "/").map(String.init)
        guard method == "GET" else { return Self.error(404, 34, "The resource you requested could not be found.") }
        if parts.count == 4, parts[0] == "t", parts[1] == "p" { return poster("/" + parts[3]) }
        let bearer = headers.contains { $0.0.lowercased() == "authorization" && $0.1 == "Bearer \(Self.token)" }
        guard bearer || query["api_key"] == Self.token else {
            return Self.error(401, 7, "Invalid API key: You must be granted a valid key.")
        }
        switch (parts.count, parts.first, parts.dropFirst().first) {
        case (3, "3", "search") where parts[2] == "movie": return search(query)
        case (3, "3", "movie"): return details(parts[2], query: query)
        default: return Self.error(404, 34, "The resource you requested could not be found.")
        }
    }

    func stop() async {}

    /// `search/movie`: one page of at most 20, most popular first.
    private func search(_ query: [String: String]) -> HTTPResponse {
        guard let page = Int(query["page"] ?? "1"), (1...500).contains(page) else {
            return Self.error(400, 22, "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.")
        }
        let words = Self.fold(query["query"] ?? "").split(separator: " ").map(String.init)
        let year = query["year"].flatMap(Int.init)
        let matches = SimulatedFilm.all.filter { film in
            !words.isEmpty && (year == nil || film.year == year)
                && [film.title, film.originalTitle].contains { title in words.allSatisfy(Self.fold(title).contains) }
        }.sorted { ($0.popularity, $1.id) > ($1.popularity, $0.id) }
        let results = matches.dropFirst((page - 1) * 20).prefix(20)
        return Self.json([
            "page": page, "results": results.map(\.searchResult),
            "total_pages": max(1, (matches.count + 19) / 20), "total_results": matches.count,
        ])
    }

    /// `movie/{id}`, with `external_ids` and `credits` when appended.
    private func details(_ id: String, query: [String: String]) -> HTTPResponse {
        guard let id = Int(id), let film = SimulatedFilm.all.first(where: { $0.id == id }) else {
            return Self.error(404, 34, "The resource you requested could not be found.")
        }
        let appended = (query["append_to_response"] ?? "").split(separator: ",")
        var body = film.details
        if appended.contains("external_ids") { body["external_ids"] = ["imdb_id": film.imdbID] }
        if appended.contains("credits") {
            body["credits"] = ["cast": [], "crew": [["name": film.director, "job": "Director", "department": "Directing"]]]
        }
        return Self.json(body)
    }

    /// A poster of one of the films, or of one the demo server's movies name (its own
    /// stand-in's `ferry-poster-{id}.png`, films TMDB has): a few bytes of its own.
    private func poster(_ file: String) -> HTTPResponse {
        let demo = file.hasPrefix("/ferry-poster-") && file.hasSuffix(".png")
        guard demo || SimulatedFilm.all.contains(where: { $0.posterPath == file }) else {
            return HTTPResponse(status: 404, headers: [:], body: Data())
        }
        return HTTPResponse(status: 200, headers: ["content-type": "image/jpeg"], body: Data("poster \(file)".utf8))
    }

    private static func split(_ path: String) -> (String, [String: String]) {
        let halves = path.split(separator: "?", maxSplits: 1).map(String.init)
        var query: [String: String] = [:]
        for pair in (halves.count > 1 ? halves[1] : "").split(separator: "&") {
            let items = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if query[items[0]] == nil { query[items[0]] = items.count > 1 ? items[1] : "" }
        }
        return (halves.first ?? "/", query)
    }

    /// Case and accents folded, letters and digits only, words single-spaced.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .components(separatedBy: CharacterSet.alphanumerics.inverted).filter { !$0.isEmpty }.joined(separator: " ")
    }

    private static func json(_ object: [String: Any], status: Int = 200) -> HTTPResponse {
        let body = (try? SortedJSON.data(object, escapingSlashes: false)) ?? Data()
        return HTTPResponse(status: status, headers: ["content-type": "application/json;charset=utf-8"], body: body)
    }

    /// TMDB's error body.
    private static func error(_ status: Int, _ code: Int, _ message: String) -> HTTPResponse {
        json(["status_code": code, "status_message": message, "success": false], status: status)
    }
}
