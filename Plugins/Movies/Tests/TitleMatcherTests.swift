import Testing

@testable import MoviesPlugin

@Suite("Movies: choosing the TMDB match")
struct TitleMatcherTests {
    static func result(_ id: Int, _ title: String, _ year: Int, popularity: Double) -> TMDBSearchResult {
        TMDBSearchResult(
            id: id,
            title: title,
            originalTitle: title,
            releaseDate: "\(year)-01-01",
            popularity: popularity,
            posterPath: nil
        )
    }

    let heat = result(949, "Heat", 1995, popularity: 61)
    let theHeat = result(136795, "The Heat", 2013, popularity: 80)
    let dune84 = result(841, "Dune", 1984, popularity: 20)
    let dune21 = result(438631, "Dune", 2021, popularity: 90)

    @Test func anExactTitleBeatsAMorePopularNearMatch() {
        #expect(TitleMatcher().match(title: "heat", year: nil, results: [theHeat, heat]) == .match(heat))
    }

    @Test func theYearDecidesBetweenRemakes() {
        #expect(TitleMatcher().match(title: "Dune", year: 1984, results: [dune21, dune84]) == .match(dune84))
    }

    @Test func tiesStayPendingUnlessConfiguredToTakeTheMostPopular() {
        guard
            case .pending(_, let candidates) = TitleMatcher().match(
                title: "Dune",
                year: nil,
                results: [dune84, dune21]
            )
        else {
            Issue.record("a tie was guessed")
            return
        }
        #expect(candidates.map(\.id) == [438631, 841])
        #expect(
            TitleMatcher(ties: .mostPopular).match(title: "Dune", year: nil, results: [dune84, dune21])
                == .match(dune21)
        )
    }

    @Test func accentsCaseAndPunctuationAreIgnored() {
        let amelie = Self.result(194, "Amélie", 2001, popularity: 30)
        let oceans = Self.result(161, "Ocean's Eleven", 2001, popularity: 30)
        #expect(TitleMatcher().match(title: "AMELIE", year: 2001, results: [amelie]) == .match(amelie))
        #expect(TitleMatcher().match(title: "oceans eleven", year: 2001, results: [oceans]) == .match(oceans))
    }

    @Test func noResultsOrNoExactTitleStaysPending() {
        guard case .pending(_, let none) = TitleMatcher().match(title: "Zzyzx Road", year: nil, results: []) else {
            Issue.record("matched nothing")
            return
        }
        #expect(none.isEmpty)
        guard case .pending = TitleMatcher().match(title: "Heat 2", year: nil, results: [heat, theHeat]) else {
            Issue.record("matched a different title")
            return
        }
    }
}
