import Foundation
import SyncKernel

/// How movies look in tables and detail views.
enum MovieFormat {
    static func row(_ movie: Movie) -> [String] {
        [
            movie.id, movie.title, movie.year.map(String.init) ?? "", status(movie.status),
            movie.myRating.map { "\($0)/10" } ?? "", movie.recommender ?? "", sync(movie.sync),
        ]
    }

    static let header = ["ID", "TITLE", "YEAR", "STATUS", "RATING", "FROM", "SYNC"]

    static func status(_ status: String) -> String {
        status.replacingOccurrences(of: "_", with: " ")
    }

    static func sync(_ state: Movie.SyncState) -> String {
        switch state {
        case .synced: ""
        case .changed: "pending changes"
        case .removing: "removal pending"
        case .pendingMatch: "added offline, to match"
        case .needsChoice: "needs a choice (movies pending)"
        case .failed: "change failed: ferry queue list --state dead"
        }
    }

    static func details(_ movie: Movie, poster: String?) -> String {
        var lines: [(String, String)] = [
            ("id", movie.id), ("title", movie.label),
        ]
        if let original = movie.originalTitle, original != movie.title { lines.append(("original", original)) }
        lines += [
            ("status", status(movie.status)),
            ("my rating", movie.myRating.map { "\($0)/10" } ?? "-"), ("watched on", movie.dateWatched ?? "-"),
            ("recommender", movie.recommender ?? "-"),
            ("genres", movie.genres.isEmpty ? "-" : movie.genres.joined(separator: ", ")),
            ("director", movie.director ?? "-"), ("runtime", movie.runtime.map { "\($0) min" } ?? "-"),
            ("tmdb id", movie.tmdbId.map(String.init) ?? "-"),
            ("imdb id", movie.imdbId ?? "-"), ("poster path", movie.posterPath ?? "-"),
        ]
        if let poster { lines.append(("poster file", poster)) }
        if movie.sync != .synced { lines.append(("sync", sync(movie.sync))) }
        var text = lines.map { "\(($0.0 + ":").padding(toLength: 13, withPad: " ", startingAt: 0)) \($0.1)" }.joined(
            separator: "\n"
        )
        if let overview = movie.overview, !overview.isEmpty { text += "\n\n" + overview }
        return text
    }
}
