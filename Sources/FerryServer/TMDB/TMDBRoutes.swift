import FerryHashing
import Foundation

/// A TMDB API v3 subset under `/tmdb/3` (same paths, parameters, JSON and auth as
/// api.themoviedb.org/3) and poster bytes under `/tmdb/t/p/{size}/{file}` (like image.tmdb.org).
enum TMDBRoutes {
    static let pageSize = 20

    static var routes: [Route] {
        [
            Route(.get, "/tmdb/3/search/movie", access: .anyone, batchable: false, handler: search),
            Route(.get, "/tmdb/3/movie/{id}", access: .anyone, batchable: false, handler: details),
            Route(.get, "/tmdb/3/movie/{id}/external_ids", access: .anyone, batchable: false) { request, env in
                try authorize(request, env)
                return .json(try film(request).externalIDs)
            },
            Route(.get, "/tmdb/3/movie/{id}/credits", access: .anyone, batchable: false) { request, env in
                try authorize(request, env)
                return .json(try film(request).credits)
            },
            Route(.get, "/tmdb/t/p/{size}/{file}", access: .anyone, batchable: false, handler: poster),
        ]
    }

    /// Checks `Authorization: Bearer <token>` or `api_key=<token>`.
    static func authorize(_ request: APIRequest, _ env: ServerEnvironment) throws {
        let expected = env.configuration.tmdbAccessToken
        if let header = request.header("Authorization"), header == "Bearer \(expected)" { return }
        if request.query["api_key"] == expected { return }
        throw TMDBFailure(
            status: 401,
            body: [
                "status_code": 7, "status_message": "Invalid API key: You must be granted a valid key.",
                "success": false,
            ]
        )
    }

    static func film(_ request: APIRequest) throws -> TMDBFilm {
        guard let id = Int(request.parameter("id")), let film = TMDBCatalogue.film(id) else {
            throw TMDBFailure(
                status: 404,
                body: [
                    "status_code": 34, "status_message": "The resource you requested could not be found.",
                    "success": false,
                ]
            )
        }
        return film
    }

    static func search(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        try authorize(request, env)
        let page = Int(request.query["page"] ?? "1") ?? 0
        guard (1...500).contains(page) else {
            throw TMDBFailure(
                status: 400,
                body: [
                    "status_code": 22,
                    "status_message":
                        "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.",
                    "success": false,
                ]
            )
        }
        let query = fold(request.query["query"] ?? "").trimmingCharacters(in: .whitespaces)
        let year = request.query["year"].flatMap(Int.init)
        let primaryYear = request.query["primary_release_year"].flatMap(Int.init)
        let words = query.split(separator: " ").map(String.init)
        let matches =
            query.isEmpty
            ? []
            : TMDBCatalogue.films.filter { film in
                let haystack = fold(film.title) + " " + fold(film.originalTitle)
                guard words.allSatisfy({ haystack.contains($0) }) else { return false }
                if let year, film.year != year { return false }
                if let primaryYear, film.year != primaryYear { return false }
                return true
            }.sorted { $0.popularity > $1.popularity }
        let slice = matches.dropFirst((page - 1) * pageSize).prefix(pageSize)
        let totalPages = max(1, (matches.count + pageSize - 1) / pageSize)
        return .json([
            "page": .int(page), "results": .array(slice.map(\.searchResult)),
            "total_pages": .int(matches.isEmpty ? 1 : totalPages), "total_results": .int(matches.count),
        ])
    }

    static func details(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        try authorize(request, env)
        let film = try film(request)
        var body = film.details
        let appended = (request.query["append_to_response"] ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if appended.contains("external_ids") { body["external_ids"] = film.externalIDs }
        if appended.contains("credits") { body["credits"] = film.credits }
        return .json(body)
    }

    static func poster(_ request: APIRequest, _ env: ServerEnvironment) async throws -> APIResponse {
        let sizes: Set<String> = ["w92", "w154", "w185", "w342", "w500", "w780", "original"]
        let file = request.parameter("file")
        guard sizes.contains(request.parameter("size")), file.hasPrefix("ferry-poster-"), file.hasSuffix(".png"),
            let id = Int(file.dropFirst("ferry-poster-".count).dropLast(4)), TMDBCatalogue.film(id) != nil
        else {
            throw APIError.notFound("poster_not_found", "No poster at this path.")
        }
        let bytes = PosterImage.png(for: id)
        return APIResponse(
            status: .ok,
            headers: [
                "Content-Type": "image/png", "ETag": "\"\(SHA256Hasher.hex(bytes).prefix(16))\"",
                "Cache-Control": "public, max-age=31536000",
            ],
            body: bytes
        )
    }

    /// Lowercased, without diacritics, for matching.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}

/// A TMDB-shaped error answer (not Ferry's error shape: the real TMDB does not use it).
struct TMDBFailure: Error {
    var status: Int
    var body: JSON
}
