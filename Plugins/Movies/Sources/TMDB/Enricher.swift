import Foundation

/// Finds the TMDB movie a title means: a search with the year when given, then (when
/// that finds nothing) without it, so that the candidates of other years are offered.
struct Enricher: Sendable {
    let tmdb: TMDBClient
    let matcher: TitleMatcher

    func match(title: String, year: Int?) async throws -> TitleMatcher.Outcome {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .pending(reason: "the title is empty", candidates: []) }
        var results = try await tmdb.search(title: trimmed, year: year)
        if results.isEmpty, year != nil {
            let others = try await tmdb.search(title: trimmed, year: nil)
            if !others.isEmpty {
                results = others
            }
        }
        return matcher.match(title: trimmed, year: year, results: results)
    }
}
