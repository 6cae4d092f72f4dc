import Foundation

/// A movie as `movies list` and `movies show` present it: the cached row with local
/// changes applied, or a movie added offline that waits for its TMDB match.
public struct Movie: Codable, Sendable, Equatable {
    /// The server's id (`m_...`), or a local id (`local-...`) for a movie added offline.
    public var id: String
    /// The TMDB id, once known.
    public var tmdbId: Int?
    /// The IMDb id (`tt...`), once known.
    public var imdbId: String?
    /// The title.
    public var title: String
    /// The title in the film's original language, when TMDB gives one.
    public var originalTitle: String?
    /// The release year.
    public var year: Int?
    /// The genre names.
    public var genres: [String]
    /// The director.
    public var director: String?
    /// A one-paragraph summary.
    public var overview: String?
    /// The TMDB poster path (`/file.png`), fetched from the image base.
    public var posterPath: String?
    /// The running time in minutes.
    public var runtime: Int?
    /// `want_to_watch`, `watching` or `watched`.
    public var status: String
    /// 1...10, or nil.
    public var myRating: Int?
    /// `YYYY-MM-DD`, or nil.
    public var dateWatched: String?
    /// Who recommended it.
    public var recommender: String?
    /// Where it stands against the server.
    public var sync: SyncState

    /// Where a movie stands against the server.
    public enum SyncState: String, Codable, Sendable {
        /// The server has it as shown.
        case synced
        /// Local changes wait in the outbox.
        case changed
        /// Removed locally; the removal waits in the outbox.
        case removing
        /// Added offline by title; it is matched on TMDB and added when online.
        case pendingMatch = "pending_match"
        /// Added offline by title; TMDB gave no single best match: `movies resolve` settles it.
        case needsChoice = "needs_choice"
        /// A change failed for good: the server holds another value until a person retries
        /// or discards it (`ferry queue list --state dead`).
        case failed
    }

    /// Whether the movie holds writes the server has not seen.
    public var hasPendingWrites: Bool { sync != .synced }

    /// `Title (Year)`.
    public var label: String { year.map { "\(title) (\($0))" } ?? title }
}
