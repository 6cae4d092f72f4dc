import Foundation
import SyncKernel

/// What `movies update` changes; validated before anything is written.
public struct MovieChanges: Sendable, Equatable {
    /// `want_to_watch`, `watching` or `watched`.
    public var status: String?
    /// 1...10.
    public var rating: Int?
    /// `YYYY-MM-DD`.
    public var watchedOn: String?
    /// Who recommended it.
    public var recommender: String?
    /// Removes the rating.
    public var clearRating = false
    /// Removes the date watched.
    public var clearWatchedOn = false
    /// Removes the recommender.
    public var clearRecommender = false

    /// Creates a change; every field is optional.
    public init(
        status: String? = nil,
        rating: Int? = nil,
        watchedOn: String? = nil,
        recommender: String? = nil,
        clearRating: Bool = false,
        clearWatchedOn: Bool = false,
        clearRecommender: Bool = false
    ) {
        self.status = status
        self.rating = rating
        self.watchedOn = watchedOn
        self.recommender = recommender
        self.clearRating = clearRating
        self.clearWatchedOn = clearWatchedOn
        self.clearRecommender = clearRecommender
    }

    /// The queued patch; throws `usage` naming the bad value and what is accepted.
    func patch() throws -> MoviePatch {
        var patch = MoviePatch()
        if let status {
            let normalized = status.lowercased().replacingOccurrences(of: "-", with: "_").replacingOccurrences(
                of: " ",
                with: "_"
            )
            guard MoviePatch.statuses.contains(normalized) else {
                throw FerryError(
                    .usage,
                    "--status '\(status)' is not a status; use one of \(MoviePatch.statuses.joined(separator: ", "))"
                )
            }
            patch.changes["status"] = .text(normalized)
        }
        if let rating {
            guard (1...10).contains(rating) else {
                throw FerryError(.usage, "--rating \(rating) is out of range; give a whole number from 1 to 10")
            }
            patch.changes["my_rating"] = .number(rating)
        }
        if let watchedOn {
            guard Self.isDate(watchedOn) else {
                throw FerryError(
                    .usage,
                    "--watched-on '\(watchedOn)' is not a date; write it as YYYY-MM-DD, e.g. 2026-11-21"
                )
            }
            patch.changes["date_watched"] = .text(watchedOn)
        }
        if let recommender {
            let trimmed = recommender.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= 100 else {
                throw FerryError(.usage, "--recommender must be a name of 1 to 100 characters")
            }
            patch.changes["recommender"] = .text(trimmed)
        }
        for (flag, field, set) in [
            (clearRating, "my_rating", rating != nil), (clearWatchedOn, "date_watched", watchedOn != nil),
            (clearRecommender, "recommender", recommender != nil),
        ] where flag {
            guard !set else { throw FerryError(.usage, "\(field) cannot be set and cleared in one update; pick one") }
            patch.changes[field] = .clear
        }
        guard !patch.isEmpty else {
            throw FerryError(
                .usage,
                "nothing to change; give --status, --rating, --watched-on or --recommender (or a --clear-... flag)"
            )
        }
        return patch
    }

    /// Whether `text` is a real calendar date written `YYYY-MM-DD`.
    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1800...2200).contains(year), (1...12).contains(month), day >= 1
        else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month)
        guard let date = calendar.date(from: components), let days = calendar.range(of: .day, in: .month, for: date)
        else { return false }
        return days.contains(day)
    }
}
