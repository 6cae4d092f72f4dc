/// The small catalogue of real films behind the TMDB-compatible endpoints.
///
/// Ids, titles, dates and IMDb ids are public facts; overviews are our own one-liners.
/// It holds deliberately ambiguous titles (two "Heat"s, two "Solaris", two "Dune"s,
/// two "The Thing"s, two "Ocean's Eleven"s).
enum TMDBCatalogue {
    /// TMDB's movie genre ids and names.
    static let genres: [Int: String] = [
        28: "Action", 12: "Adventure", 16: "Animation", 35: "Comedy", 80: "Crime", 99: "Documentary", 18: "Drama",
        10751: "Family", 14: "Fantasy", 36: "History", 27: "Horror", 10402: "Music", 9648: "Mystery",
        10749: "Romance", 878: "Science Fiction", 10770: "TV Movie", 53: "Thriller", 10752: "War", 37: "Western",
    ]

    /// The film with TMDB id `id`.
    static func film(_ id: Int) -> TMDBFilm? { byID[id] }

    private static let byID: [Int: TMDBFilm] = Dictionary(films.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    static let films: [TMDBFilm] = [
        film(949, "Heat", "en", "1995-12-15", "tt0113277", [28, 80, 18, 53], 170, "Michael Mann",
             [("Al Pacino", "Lt. Vincent Hanna"), ("Robert De Niro", "Neil McCauley"), ("Val Kilmer", "Chris Shiherlis")],
             "A driven LA detective and a disciplined professional thief circle each other through one long, violent heist season.", 61.2, 7.9, 7400),
        film(136795, "The Heat", "en", "2013-06-27", "tt2404463", [28, 35, 80], 117, "Paul Feig",
             [("Sandra Bullock", "Sarah Ashburn"), ("Melissa McCarthy", "Shannon Mullins")],
             "A by-the-book FBI agent and a foul-mouthed Boston cop are forced to hunt a drug lord together.", 30.4, 6.6, 5300),
        film(593, "Solaris", "ru", "1972-03-20", "tt0069293", [18, 878, 9648], 167, "Andrei Tarkovsky",
             [("Natalya Bondarchuk", "Hari"), ("Donatas Banionis", "Kris Kelvin")],
             "A psychologist sent to a station orbiting an ocean planet meets the living memory of his dead wife.", 19.7, 7.7, 1900),
        film(2103, "Solaris", "en", "2002-11-27", "tt0307479", [18, 878, 9648, 10749], 99, "Steven Soderbergh",
             [("George Clooney", "Chris Kelvin"), ("Natascha McElhone", "Rheya")],
             "A grieving psychiatrist aboard a space station finds his late wife alive again, and cannot tell what she is.", 16.1, 6.2, 1600),
        film(841, "Dune", "en", "1984-12-14", "tt0087182", [28, 12, 878], 137, "David Lynch",
             [("Kyle MacLachlan", "Paul Atreides"), ("Francesca Annis", "Lady Jessica")],
             "The heir of a noble house is betrayed on a desert planet and rises with its people to seize the spice.", 28.9, 6.2, 2900),
        film(438631, "Dune", "en", "2021-09-15", "tt1160419", [878, 12], 155, "Denis Villeneuve",
             [("Timothée Chalamet", "Paul Atreides"), ("Rebecca Ferguson", "Lady Jessica")],
             "A young duke's son takes his family to the most dangerous planet in the universe, where his destiny begins.", 98.3, 7.8, 12000),
        film(1091, "The Thing", "en", "1982-06-25", "tt0084787", [27, 9648, 878], 109, "John Carpenter",
             [("Kurt Russell", "MacReady"), ("Wilford Brimley", "Blair")],
             "An Antarctic research team discovers a shape-shifting organism that can imitate any of them.", 44.5, 8.0, 6900),
        film(60935, "The Thing", "en", "2011-10-12", "tt0905372", [27, 9648, 878], 103, "Matthijs van Heijningen Jr.",
             [("Mary Elizabeth Winstead", "Kate Lloyd"), ("Joel Edgerton", "Sam Carter")],
             "A Norwegian Antarctic team digs up something in the ice that should have stayed buried.", 22.0, 6.2, 2500),
        film(299, "Ocean's Eleven", "en", "1960-08-10", "tt0054135", [80, 35], 127, "Lewis Milestone",
             [("Frank Sinatra", "Danny Ocean"), ("Dean Martin", "Sam Harmon")],
             "Eleven wartime buddies plan to rob five Las Vegas casinos on a single New Year's Eve.", 11.2, 6.1, 420),
        film(161, "Ocean's Eleven", "en", "2001-12-07", "tt0240772", [53, 80], 116, "Steven Soderbergh",
             [("George Clooney", "Danny Ocean"), ("Brad Pitt", "Rusty Ryan")],
             "Fresh out of prison, a charming thief assembles a crew to rob three casinos in one night.", 40.8, 7.4, 11000),
        film(603, "The Matrix", "en", "1999-03-31", "tt0133093", [28, 878], 136, "Lana Wachowski",
             [("Keanu Reeves", "Neo"), ("Laurence Fishburne", "Morpheus"), ("Carrie-Anne Moss", "Trinity")],
             "A hacker learns that his world is a simulation and joins the rebels fighting the machines that run it.", 80.1, 8.2, 25000),
        film(550, "Fight Club", "en", "1999-10-15", "tt0137523", [18], 139, "David Fincher",
             [("Edward Norton", "The Narrator"), ("Brad Pitt", "Tyler Durden")],
             "An insomniac office worker and a soap salesman start an underground club that grows into something far worse.", 73.4, 8.4, 29000),
        film(680, "Pulp Fiction", "en", "1994-09-10", "tt0110912", [53, 80], 154, "Quentin Tarantino",
             [("John Travolta", "Vincent Vega"), ("Samuel L. Jackson", "Jules Winnfield"), ("Uma Thurman", "Mia Wallace")],
             "Hitmen, a boxer and a gangster's wife cross paths in interlocking tales of Los Angeles crime.", 70.3, 8.5, 27000),
        film(238, "The Godfather", "en", "1972-03-14", "tt0068646", [18, 80], 175, "Francis Ford Coppola",
             [("Marlon Brando", "Don Vito Corleone"), ("Al Pacino", "Michael Corleone")],
             "The aging head of a crime family hands his empire to a reluctant youngest son.", 95.0, 8.7, 20000),
        film(78, "Blade Runner", "en", "1982-06-25", "tt0083658", [878, 18, 53], 117, "Ridley Scott",
             [("Harrison Ford", "Rick Deckard"), ("Rutger Hauer", "Roy Batty")],
             "In a rain-soaked future Los Angeles, a weary hunter tracks down four escaped artificial humans.", 50.2, 7.9, 13000),
        film(335984, "Blade Runner 2049", "en", "2017-10-04", "tt1856101", [878, 18], 164, "Denis Villeneuve",
             [("Ryan Gosling", "K"), ("Harrison Ford", "Rick Deckard")],
             "A new blade runner unearths a secret that leads him to a man missing for thirty years.", 55.6, 7.6, 13500),
        film(348, "Alien", "en", "1979-05-25", "tt0078748", [27, 878], 117, "Ridley Scott",
             [("Sigourney Weaver", "Ellen Ripley"), ("Tom Skerritt", "Dallas")],
             "The crew of a commercial towing ship answers a distress call and brings back a lethal stowaway.", 60.7, 8.2, 14500),
        film(27205, "Inception", "en", "2010-07-15", "tt1375666", [28, 878, 12], 148, "Christopher Nolan",
             [("Leonardo DiCaprio", "Dom Cobb"), ("Joseph Gordon-Levitt", "Arthur")],
             "A thief who steals secrets from dreams is hired to plant an idea instead.", 90.5, 8.4, 35000),
        film(129, "Spirited Away", "ja", "2001-07-20", "tt0245429", [16, 10751, 14], 125, "Hayao Miyazaki",
             [("Rumi Hiiragi", "Chihiro Ogino"), ("Miyu Irino", "Haku")],
             "A girl trapped in a world of spirits works in a bathhouse to free her parents, who were turned into pigs.", 85.2, 8.5, 16000),
        film(496243, "Parasite", "ko", "2019-05-30", "tt6751668", [35, 53, 18], 133, "Bong Joon-ho",
             [("Song Kang-ho", "Kim Ki-taek"), ("Choi Woo-shik", "Kim Ki-woo")],
             "A poor family worms its way, one job at a time, into the household of a wealthy one.", 75.9, 8.5, 18000),
        film(194, "Amélie", "fr", "2001-04-25", "tt0211915", [35, 10749], 122, "Jean-Pierre Jeunet",
             [("Audrey Tautou", "Amélie Poulain"), ("Mathieu Kassovitz", "Nino Quincampoix")],
             "A shy Paris waitress quietly rearranges the lives of the people around her, and then has to face her own.", 40.1, 7.9, 11000),
        film(329865, "Arrival", "en", "2016-11-10", "tt2543164", [18, 878, 9648], 116, "Denis Villeneuve",
             [("Amy Adams", "Louise Banks"), ("Jeremy Renner", "Ian Donnelly")],
             "A linguist races to understand visitors from space before the world panics.", 45.3, 7.6, 17000),
        film(76341, "Mad Max: Fury Road", "en", "2015-05-13", "tt1392190", [28, 12, 878], 120, "George Miller",
             [("Tom Hardy", "Max Rockatansky"), ("Charlize Theron", "Imperator Furiosa")],
             "A drifter and a rebel war-rig driver flee across the wasteland with a tyrant's captive wives.", 65.0, 7.6, 22000),
        film(1398, "Stalker", "ru", "1979-05-25", "tt0079944", [878, 18], 161, "Andrei Tarkovsky",
             [("Alisa Freyndlikh", "Stalker's Wife"), ("Aleksandr Kaydanovskiy", "Stalker")],
             "A guide leads a writer and a scientist through the forbidden Zone toward a room said to grant wishes.", 20.3, 8.0, 2500),
    ]

    private static func film(
        _ id: Int, _ title: String, _ language: String, _ date: String, _ imdb: String, _ genres: [Int], _ runtime: Int,
        _ director: String, _ cast: [(String, String)], _ overview: String, _ popularity: Double, _ vote: Double,
        _ votes: Int
    ) -> TMDBFilm {
        let originals = [593: "Солярис", 1398: "Сталкер", 129: "千と千尋の神隠し", 496243: "기생충", 194: "Le Fabuleux Destin d'Amélie Poulain"]
        return TMDBFilm(
            id: id, title: title, originalTitle: originals[id] ?? title, originalLanguage: language, releaseDate: date,
            imdbID: imdb, genreIDs: genres, runtime: runtime, director: director,
            cast: cast.map { (name: $0.0, character: $0.1) }, overview: overview, popularity: popularity,
            voteAverage: vote, voteCount: votes
        )
    }
}
