import Foundation

/// Picks the TMDB search result that a title (and year) means, or says why it cannot.
///
/// The rules, in order:
/// 1. Titles are compared folded: case, accents and punctuation ignored, spaces collapsed
///    ("Amelie" is "Amélie", "oceans eleven" is "Ocean's Eleven"), against both the title
///    and the original title. A leading "The" is *not* ignored: "Heat" is not "The Heat".
/// 2. With a year: a candidate with that exact title released that year wins.
///    Without a year: a candidate with that exact title wins.
/// 3. When exactly one search result came back and its year fits (or no year was
///    given), it wins even without an exact title ("Godfather" finds "The Godfather").
/// 4. Ties (two or more candidates equally good by these rules, such as "Dune" without a
///    year) are not guessed: the movie stays pending with every candidate listed, most
///    popular first — unless `match_ties: most_popular` is configured, which takes the
///    most popular of the tied candidates (then the lowest TMDB id on equal popularity).
/// 5. No result at all, or results without an exact title: pending, with the results as
///    candidates.
struct TitleMatcher: Sendable {
    var ties: MoviesSettings.TieBreak = .ask

    /// What matching decided.
    enum Outcome: Sendable, Equatable {
        case match(TMDBSearchResult)
        case pending(reason: String, candidates: [TMDBSearchResult])
    }

    func match(title: String, year: Int?, results: [TMDBSearchResult]) -> Outcome {
        let wanted = Self.fold(title)
        let ranked = results.sorted { ($0.popularity ?? 0, -$0.id) > ($1.popularity ?? 0, -$1.id) }
        let what = year.map { "'\(title)' (\($0))" } ?? "'\(title)'"
        guard !ranked.isEmpty else {
            return .pending(reason: "TMDB has no movie matching \(what)", candidates: [])
        }
        let exact = ranked.filter { result in
            let titles = [result.title, result.originalTitle].compactMap { $0 }.map(Self.fold)
            return titles.contains(wanted) && (year == nil || result.year == year)
        }
        if exact.count == 1 { return .match(exact[0]) }
        if exact.count > 1 {
            if ties == .mostPopular { return .match(exact[0]) }
            let years = exact.map { $0.year.map(String.init) ?? "?" }.joined(separator: ", ")
            return .pending(
                reason:
                    "\(exact.count) movies are titled \(what) (\(years)); add the year or choose one with `ferry movies resolve`",
                candidates: exact
            )
        }
        if ranked.count == 1, year == nil || ranked[0].year == year {
            return .match(ranked[0])
        }
        return .pending(
            reason:
                "no movie is titled exactly \(what) on TMDB; choose one of the candidates with `ferry movies resolve`",
            candidates: ranked
        )
    }

    /// Lower case, accents removed, punctuation dropped, spaces collapsed.
    static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var result = ""
        var space = false
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                if space, !result.isEmpty { result += " " }
                space = false
                result.unicodeScalars.append(scalar)
            } else if CharacterSet.whitespaces.contains(scalar) || scalar == "-" || scalar == ":" {
                space = true
            }
        }
        return result
    }
}
