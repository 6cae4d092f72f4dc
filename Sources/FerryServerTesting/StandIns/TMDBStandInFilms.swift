/// One film the TMDB stand-in knows: what TMDB's search results, movie details,
/// `external_ids` and `credits` say about it (the wire format lives in `TMDBStandIn`).
///
/// The data is TMDB's as far as it is known: ids, titles, dates, runtimes, genres, IMDb
/// ids and directors are the real ones. Popularity, votes and money figures are close to
/// TMDB's but not exact; person ids are TMDB's where known and placeholders otherwise; poster
/// and backdrop paths have TMDB's shape (`/` + 27 characters + `.jpg`) without all being
/// TMDB's current files.
struct TMDBStandInFilm: Sendable {
    /// A genre, with TMDB's genre id.
    struct Genre: Sendable, Equatable {
        let id: Int
        let name: String
    }

    /// A cast member: the person, and whom they play.
    struct Cast: Sendable {
        let id: Int
        let name: String
        let character: String
    }

    /// A crew member: the person, and their job in a department (TMDB's `Director` is
    /// job `Director` in department `Directing`).
    struct Crew: Sendable {
        let id: Int
        let name: String
        let job: String
        let department: String
    }

    var id: Int
    var title: String
    var originalTitle: String
    /// ISO 639-1.
    var originalLanguage: String
    /// `YYYY-MM-DD`, or "" when TMDB has no date.
    var releaseDate: String
    /// Minutes; 0 when unknown, as TMDB sends it.
    var runtime: Int
    var genres: [Genre]
    var overview: String
    var tagline: String = ""
    var posterPath: String?
    var backdropPath: String?
    var imdbID: String?
    var popularity: Double
    var voteAverage: Double
    var voteCount: Int
    /// US dollars; 0 when unknown.
    var budget: Int = 0
    /// US dollars; 0 when unknown.
    var revenue: Int = 0
    var homepage: String = ""
    var status: String = "Released"
    var adult: Bool = false
    var cast: [Cast] = []
    var crew: [Crew] = []

    /// The release year, when the film has a date.
    var year: Int? { releaseDate.count >= 4 ? Int(releaseDate.prefix(4)) : nil }
}

extension TMDBStandInFilm.Genre {
    static let action = Self(id: 28, name: "Action")
    static let adventure = Self(id: 12, name: "Adventure")
    static let animation = Self(id: 16, name: "Animation")
    static let crime = Self(id: 80, name: "Crime")
    static let documentary = Self(id: 99, name: "Documentary")
    static let drama = Self(id: 18, name: "Drama")
    static let fantasy = Self(id: 14, name: "Fantasy")
    static let horror = Self(id: 27, name: "Horror")
    static let scienceFiction = Self(id: 878, name: "Science Fiction")
    static let thriller = Self(id: 53, name: "Thriller")
}

extension TMDBStandInFilm.Crew {
    /// A director, as TMDB lists one in `credits.crew`.
    static func director(_ id: Int, _ name: String) -> Self {
        Self(id: id, name: name, job: "Director", department: "Directing")
    }

    /// A screenwriter, as TMDB lists one in `credits.crew`.
    static func screenplay(_ id: Int, _ name: String) -> Self {
        Self(id: id, name: name, job: "Screenplay", department: "Writing")
    }
}

extension TMDBStandInFilm {
    /// The stand-in's films: none of them is in the reference server's TMDB subset, so a
    /// test that finds one of them knows which server answered.
    ///
    /// - Aliens and Alien³: a sequel pair; Alien³'s superscript matches a query "alien 3".
    /// - The City of Lost Children: the original title differs from the title and has a
    ///   diacritic (`cité`), and the film has two directors.
    /// - Princess Mononoke: a Japanese original title, and cast names with macrons.
    /// - Crash (1996) and Crash (2004): one title, two films; only the year tells them apart.
    /// - An invented obscure entry without a date, a poster or an IMDb id.
    static let all: [TMDBStandInFilm] = [
        aliens, alien3, cityOfLostChildren, princessMononoke, crash1996, crash2004, obscure,
    ]

    static let aliens = TMDBStandInFilm(
        id: 679,
        title: "Aliens",
        originalTitle: "Aliens",
        originalLanguage: "en",
        releaseDate: "1986-07-18",
        runtime: 137,
        genres: [.action, .thriller, .scienceFiction],
        overview:
            "Ripley wakes from decades of hypersleep to find the moon of her nightmares colonised, and goes back with a squad of marines when the colony falls silent.",
        tagline: "This time it's war.",
        posterPath: "/r1x5JGpyqZU8PYhbs4UcrO1Xb6x.jpg",
        backdropPath: "/jMBpJFRtrtIXymer93XLavPwI3P.jpg",
        imdbID: "tt0090605",
        popularity: 58.412,
        voteAverage: 7.9,
        voteCount: 9850,
        budget: 18_500_000,
        revenue: 131_060_248,
        cast: [
            Cast(id: 10205, name: "Sigourney Weaver", character: "Ellen Ripley"),
            Cast(id: 2712, name: "Michael Biehn", character: "Cpl. Dwayne Hicks"),
            Cast(id: 2714, name: "Lance Henriksen", character: "Bishop"),
            Cast(id: 2053, name: "Bill Paxton", character: "Pvt. Hudson"),
        ],
        crew: [.director(2710, "James Cameron"), .screenplay(2710, "James Cameron")]
    )

    static let alien3 = TMDBStandInFilm(
        id: 8077,
        title: "Alien³",
        originalTitle: "Alien³",
        originalLanguage: "en",
        releaseDate: "1992-05-22",
        runtime: 114,
        genres: [.scienceFiction, .action, .horror],
        overview:
            "Ripley's escape pod crashes on a prison planet whose inmates have no weapons, and something from the wreck begins to hunt them.",
        tagline: "The bitch is back.",
        posterPath: "/xh5wI0UoW7DfS1IyLy3d2CgrCEP.jpg",
        backdropPath: "/nmYIUR4bCTwdl9aRXGBZvW6NlUr.jpg",
        imdbID: "tt0103644",
        popularity: 34.876,
        voteAverage: 6.4,
        voteCount: 6120,
        budget: 50_000_000,
        revenue: 159_773_545,
        cast: [
            Cast(id: 10205, name: "Sigourney Weaver", character: "Ellen Ripley"),
            Cast(id: 17764, name: "Charles S. Dutton", character: "Dillon"),
            Cast(id: 4786, name: "Charles Dance", character: "Clemens"),
        ],
        crew: [.director(7467, "David Fincher")]
    )

    static let cityOfLostChildren = TMDBStandInFilm(
        id: 902,
        title: "The City of Lost Children",
        originalTitle: "La Cité des enfants perdus",
        originalLanguage: "fr",
        releaseDate: "1995-05-17",
        runtime: 112,
        genres: [.fantasy, .scienceFiction, .adventure],
        overview:
            "A scientist who cannot dream steals children's dreams from his rig at sea, until a carnival strongman and a street girl come for his latest captive.",
        posterPath: "/whwT3Q9JxbAYzEc3t7uK2TUhuFm.jpg",
        backdropPath: "/9bGd9dz4yLkSTNv2ZfwhLWqkmNB.jpg",
        imdbID: "tt0112682",
        popularity: 15.203,
        voteAverage: 7.3,
        voteCount: 1460,
        budget: 18_000_000,
        cast: [
            Cast(id: 2372, name: "Ron Perlman", character: "One"),
            Cast(id: 2413, name: "Dominique Pinon", character: "The Diver / The Clones"),
            Cast(id: 11546, name: "Daniel Emilfork", character: "Krank"),
            Cast(id: 11547, name: "Judith Vittet", character: "Miette"),
        ],
        crew: [.director(2419, "Jean-Pierre Jeunet"), .director(2420, "Marc Caro")]
    )

    static let princessMononoke = TMDBStandInFilm(
        id: 128,
        title: "Princess Mononoke",
        originalTitle: "もののけ姫",
        originalLanguage: "ja",
        releaseDate: "1997-07-12",
        runtime: 134,
        genres: [.adventure, .fantasy, .animation],
        overview:
            "Cursed by a dying boar god, a young prince travels west and finds an ironworks town at war with the forest and the wolf-raised girl who defends it.",
        posterPath: "/cMYCDADoLKLbB83g4WnJegaZimC.jpg",
        backdropPath: "/6pTqSq0zYIWCsucJys8q5L92kUY.jpg",
        imdbID: "tt0119698",
        popularity: 61.734,
        voteAverage: 8.3,
        voteCount: 8120,
        budget: 23_500_000,
        revenue: 159_375_308,
        cast: [
            Cast(id: 20335, name: "Yōji Matsuda", character: "Ashitaka (voice)"),
            Cast(id: 20336, name: "Yuriko Ishida", character: "San (voice)"),
            Cast(id: 20337, name: "Yūko Tanaka", character: "Lady Eboshi (voice)"),
        ],
        crew: [.director(608, "Hayao Miyazaki"), .screenplay(608, "Hayao Miyazaki")]
    )

    static let crash1996 = TMDBStandInFilm(
        id: 884,
        title: "Crash",
        originalTitle: "Crash",
        originalLanguage: "en",
        releaseDate: "1996-10-04",
        runtime: 100,
        genres: [.drama, .thriller],
        overview:
            "After a head-on collision, a television producer falls in with a group of people who find their desire in car crashes.",
        posterPath: "/nOHDZ7XgJ6WnVaG9K3DoMMjcnvC.jpg",
        backdropPath: "/bHsg5C2K4cqP2wBNmQnhV6H4c7q.jpg",
        imdbID: "tt0115964",
        popularity: 21.508,
        voteAverage: 6.2,
        voteCount: 1530,
        budget: 10_000_000,
        revenue: 2_038_450,
        cast: [
            Cast(id: 13548, name: "James Spader", character: "James Ballard"),
            Cast(id: 18686, name: "Holly Hunter", character: "Helen Remington"),
            Cast(id: 10748, name: "Elias Koteas", character: "Vaughan"),
            Cast(id: 13549, name: "Deborah Kara Unger", character: "Catherine Ballard"),
        ],
        crew: [.director(224, "David Cronenberg"), .screenplay(224, "David Cronenberg")]
    )

    static let crash2004 = TMDBStandInFilm(
        id: 1640,
        title: "Crash",
        originalTitle: "Crash",
        originalLanguage: "en",
        releaseDate: "2004-09-10",
        runtime: 112,
        genres: [.drama, .crime],
        overview:
            "Over two days in Los Angeles, a detective, a district attorney's wife, a locksmith and two carjackers collide with one another's prejudices.",
        tagline: "You think you know who you are. You have no idea.",
        posterPath: "/86BnC2ZxVOs1xuKMRotWeHKNuNT.jpg",
        backdropPath: "/a6JqwrT6QxM0cITeHUBhY0jCzNd.jpg",
        imdbID: "tt0375679",
        popularity: 29.967,
        voteAverage: 7.3,
        voteCount: 4280,
        budget: 6_500_000,
        revenue: 98_410_061,
        cast: [
            Cast(id: 18277, name: "Sandra Bullock", character: "Jean Cabot"),
            Cast(id: 1896, name: "Don Cheadle", character: "Det. Graham Waters"),
            Cast(id: 2876, name: "Matt Dillon", character: "Officer John Ryan"),
            Cast(id: 18288, name: "Terrence Howard", character: "Cameron Thayer"),
        ],
        crew: [.director(17016, "Paul Haggis"), .screenplay(17016, "Paul Haggis")]
    )

    /// Invented (TMDB has no such film): an id above 9,000,000, far beyond TMDB's real
    /// ids, so it can never shadow a real film. No date, no poster, no IMDb id, no credits,
    /// as small TMDB entries often are.
    static let obscure = TMDBStandInFilm(
        id: 9_000_001,
        title: "The Lighthouse Keeper's Almanac",
        originalTitle: "The Lighthouse Keeper's Almanac",
        originalLanguage: "en",
        releaseDate: "",
        runtime: 0,
        genres: [.documentary],
        overview: "",
        posterPath: nil,
        backdropPath: nil,
        imdbID: nil,
        popularity: 0.6,
        voteAverage: 0,
        voteCount: 0
    )
}
