/// One film of the shipped catalogue, with the public facts TMDB's API returns.
struct TMDBFilm: Sendable {
    var id: Int
    var title: String
    var originalTitle: String
    var originalLanguage: String
    var releaseDate: String
    var imdbID: String
    var genreIDs: [Int]
    var runtime: Int
    var director: String
    var cast: [(name: String, character: String)]
    var overview: String
    var popularity: Double
    var voteAverage: Double
    var voteCount: Int

    /// The release year, e.g. 1995.
    var year: Int? { Int(releaseDate.prefix(4)) }

    /// A poster path in TMDB's form (`/xyz.png`), served by `/tmdb/t/p/{size}/{file}`.
    var posterPath: String { "/ferry-poster-\(id).png" }

    /// Names of this film's genres.
    var genreNames: [String] { genreIDs.compactMap { TMDBCatalogue.genres[$0] } }
}
