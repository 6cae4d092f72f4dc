import Foundation

/// A film the simulated TMDB knows, with the facts TMDB gives for it (none of them is in
/// the demo user's list, so each one on a list was added in the run).
struct SimulatedFilm: Sendable {
    /// Its name in traces: one word.
    let key: String
    let id: Int
    let title: String
    let originalTitle: String
    let releaseDate: String
    let director: String
    let imdbID: String
    let runtime: Int
    let popularity: Double
    /// What a person types to add it: the title (folded or not), and the year when the
    /// title alone does not tell it apart.
    let typed: (title: String, year: Int?)

    var year: Int? { Int(releaseDate.prefix(4)) }
    var posterPath: String { "/sim-poster-\(id).jpg" }

    /// Two films share the title "Crash": only the year tells them apart.
    static let all = [
        SimulatedFilm(
            key: "aliens", id: 679, title: "Aliens", originalTitle: "Aliens", releaseDate: "1986-07-18",
            director: "James Cameron", imdbID: "tt0090605", runtime: 137, popularity: 58.4, typed: ("Aliens", nil)
        ),
        SimulatedFilm(
            key: "city", id: 902, title: "The City of Lost Children", originalTitle: "La Cité des enfants perdus",
            releaseDate: "1995-05-17", director: "Jean-Pierre Jeunet", imdbID: "tt0112682", runtime: 112,
            popularity: 15.2, typed: ("the city of lost children", nil)
        ),
        SimulatedFilm(
            key: "mononoke", id: 128, title: "Princess Mononoke", originalTitle: "もののけ姫", releaseDate: "1997-07-12",
            director: "Hayao Miyazaki", imdbID: "tt0119698", runtime: 134, popularity: 61.7,
            typed: ("Princess Mononoke", nil)
        ),
        SimulatedFilm(
            key: "crash96", id: 884, title: "Crash", originalTitle: "Crash", releaseDate: "1996-07-18",
            director: "David Cronenberg", imdbID: "tt0115964", runtime: 100, popularity: 20.1, typed: ("Crash", 1996)
        ),
        SimulatedFilm(
            key: "crash04", id: 1640, title: "Crash", originalTitle: "Crash", releaseDate: "2004-09-10",
            director: "Paul Haggis", imdbID: "tt0375679", runtime: 112, popularity: 24.9, typed: ("Crash", 2004)
        ),
    ]

    /// The film as one of `search/movie`'s results.
    var searchResult: [String: Any] {
        [
            "adult": false, "id": id, "title": title, "original_title": originalTitle, "release_date": releaseDate,
            "popularity": popularity, "poster_path": posterPath, "overview": "", "video": false, "genre_ids": [18],
        ]
    }

    /// The film as `movie/{id}` answers before anything is appended.
    var details: [String: Any] {
        [
            "adult": false, "id": id, "title": title, "original_title": originalTitle, "release_date": releaseDate,
            "imdb_id": imdbID, "runtime": runtime, "popularity": popularity, "poster_path": posterPath,
            "overview": "\(title), directed by \(director).", "genres": [["id": 18, "name": "Drama"]], "status": "Released",
        ]
    }
}
