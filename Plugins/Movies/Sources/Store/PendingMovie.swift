import Foundation

/// A movie added offline by title, waiting for its TMDB match.
public struct PendingMovie: Codable, Sendable, Equatable {
    /// Its local id (`local-...`); queued changes to it follow it to its server id.
    public var id: String
    /// The title as typed.
    public var title: String
    /// The year as typed, if any.
    public var year: Int?
    /// Who recommended it.
    public var recommender: String?
    /// The TMDB id chosen by hand (`movies resolve`), if any.
    public var tmdbId: Int?
    /// Its status (changes made while pending apply here).
    public var status: String
    /// Its rating, if set while pending.
    public var myRating: Int?
    /// The date watched, if set while pending.
    public var dateWatched: String?
    /// `waiting` (to be matched when online), `needs_choice` (no single best match) or
    /// `failed` (its add failed for good; `reason` says why).
    public var state: State
    /// Why it is still pending, once a match was tried.
    public var reason: String?
    /// What TMDB offered, best first.
    public var candidates: [Candidate]
    /// When it was added.
    public var createdAt: Date

    /// Where a pending movie stands.
    public enum State: String, Codable, Sendable {
        /// To be matched on TMDB and added when `ferry run` is online.
        case waiting
        /// TMDB gave no single best match: `movies resolve` settles it.
        case needsChoice = "needs_choice"
        /// Its add failed for good (a dead letter): `ferry queue retry` or `discard`.
        case failed
    }

    /// One TMDB search result offered for a pending movie.
    public struct Candidate: Codable, Sendable, Equatable {
        /// The candidate's TMDB id.
        public var tmdbId: Int
        /// The candidate's title.
        public var title: String
        /// The candidate's release year.
        public var year: Int?
        /// TMDB's popularity score.
        public var popularity: Double?

        /// Creates a candidate.
        public init(tmdbId: Int, title: String, year: Int?, popularity: Double?) {
            self.tmdbId = tmdbId
            self.title = title
            self.year = year
            self.popularity = popularity
        }

        /// `Title (Year) tmdb N`.
        public var label: String { "\(year.map { "\(title) (\($0))" } ?? title), tmdb \(tmdbId)" }
    }

    /// The movie as lists show it.
    var asMovie: Movie {
        Movie(
            id: id,
            tmdbId: tmdbId,
            imdbId: nil,
            title: title,
            originalTitle: nil,
            year: year,
            genres: [],
            director: nil,
            overview: nil,
            posterPath: nil,
            runtime: nil,
            status: status,
            myRating: myRating,
            dateWatched: dateWatched,
            recommender: recommender,
            sync: state == .needsChoice ? .needsChoice : state == .failed ? .failed : .pendingMatch
        )
    }
}
