import Foundation

/// `GET /search/movie`'s answer (TMDB API v3).
struct TMDBSearchPage: Decodable, Sendable {
    var page: Int?
    var results: [TMDBSearchResult]
    var totalResults: Int?
}

/// One search result.
struct TMDBSearchResult: Decodable, Sendable, Equatable {
    var id: Int
    var title: String
    var originalTitle: String?
    var releaseDate: String?
    var popularity: Double?
    var posterPath: String?

    /// The release year, from `release_date` (`YYYY-MM-DD`; TMDB sends "" when unknown).
    var year: Int? {
        guard let date = releaseDate, date.count >= 4 else { return nil }
        return Int(date.prefix(4))
    }
}

/// `GET /movie/{id}?append_to_response=external_ids,credits`'s answer, the parts Ferry uses.
struct TMDBMovieDetails: Decodable, Sendable, Equatable {
    struct Genre: Decodable, Sendable, Equatable { var name: String }
    struct ExternalIDs: Decodable, Sendable, Equatable { var imdbId: String? }
    struct Credits: Decodable, Sendable, Equatable {
        struct Crew: Decodable, Sendable, Equatable {
            var name: String
            var job: String?
        }
        var crew: [Crew]?
    }

    var id: Int
    var title: String
    var originalTitle: String?
    var imdbId: String?
    var releaseDate: String?
    var overview: String?
    var posterPath: String?
    var runtime: Int?
    var genres: [Genre]?
    var externalIds: ExternalIDs?
    var credits: Credits?

    /// The IMDb id, from `external_ids` or the top-level field.
    var imdb: String? {
        [externalIds?.imdbId, imdbId].compactMap { $0 }.first { !$0.isEmpty }
    }

    /// The release year, from `release_date` (`YYYY-MM-DD`; TMDB sends "" when unknown).
    var year: Int? {
        guard let date = releaseDate, date.count >= 4 else { return nil }
        return Int(date.prefix(4))
    }

    /// The first crew member whose job is Director.
    var director: String? {
        credits?.crew?.first { $0.job == "Director" }?.name
    }
}
