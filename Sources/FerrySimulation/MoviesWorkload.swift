import Foundation
import MoviesPlugin
import SyncKernel
import SyncKernelTesting

/// Adds by title (offline or not: the runner matches them on the simulated TMDB once
/// online), status and rating changes, and removals of movies on the list, from every
/// device. Films are named by a key: one of `SimulatedFilm.all`, or a film of the demo
/// list (changed and removed, never added).
///
/// Checks: no device holds a movie still waiting for its match; every device shows the
/// server's list; every film of the simulated TMDB on the server carries TMDB's title,
/// year and director (enriched); a film only one device wrote ends on the server as that
/// device last left it (on the list or not, its status, rating and recommender).
final class MoviesWorkload: SimulationWorkload, @unchecked Sendable {
    let name = "movies"
    /// Films of the demo list, by key and TMDB id.
    static let demoFilms = [("heat", 949), ("arrival", 329_865)]
    static let keys = SimulatedFilm.all.map(\.key) + demoFilms.map(\.0)

    /// A film as a person sees it on their list; nil when it is not on the list.
    struct Entry: Equatable, CustomStringConvertible {
        var status: String
        var rating: Int?
        var recommender: String?

        var description: String { "\(status), rating \(rating.map(String.init) ?? "none"), from \(recommender ?? "nobody")" }
    }

    /// How each device last left each film (by TMDB id) after a write it acknowledged.
    private var lastWrite: [Int: [Int: Entry?]] = [:]
    /// Films no longer followed: written before a restore of the server (whichever write is
    /// on it now, the restore's or a later one, none is lost), or removed on a device while
    /// their add might still adopt the server's entry (below).
    private var unfollowed: Set<Int> = []
    /// The films each device added again while its view did not show them (another
    /// account's sign-in emptied it) though its last write left them on the list. The add
    /// meets the server's entry (409) and adopts it, and what the person then changes on
    /// the pending movie goes to that entry field by field (docs/plugins/movies.md): the
    /// pending movie's own view (the recommender typed, no rating) is not what the server
    /// will hold. Followed so until the device shows the film matched.
    private var adopting: [Int: Set<Int>] = [:]

    /// After a restore, the films written before it are no longer followed: every device
    /// must still show the server's list, enriched.
    var followsRestores: Bool { true }

    func serverRestored() { unfollowed.formUnion(lastWrite.keys) }

    func draw(device: Int, using random: inout SeededRandom) -> String {
        let film = SimulatedFilm.all.randomElement(using: &random)!.key
        let key = Self.keys.randomElement(using: &random)!
        let status = ["want_to_watch", "watching", "watched"].randomElement(using: &random)!
        let rating = Int.random(in: 1...10, using: &random)
        let recommender = ["Sam", "Alex", "Kim"].randomElement(using: &random)!
        return random.weighted([
            ("add \(film) \(recommender)", 4), ("update \(key) status \(status)", 3), ("update \(key) rating \(rating)", 3),
            ("remove \(key)", 2),
        ])
    }

    func perform(_ action: String, on device: SimulatedDevice, in world: SimulationWorld) async throws {
        let words = action.split(separator: " ").map(String.init)
        guard words.count >= 2, let tmdbID = Self.tmdbID(words[1]) else {
            throw FerryError(.usage, "unknown movies action \(action)")
        }
        let library = try MoviesLibrary(runtime: device.runtime)
        let shown = try await Self.movie(tmdbID, in: library)
        if shown?.tmdbId != nil { adopting[device.index]?.remove(tmdbID) }
        let before = lastWrite[tmdbID]?[device.index] ?? nil
        switch (words[0], words.count, shown) {
        case ("add", 3, nil):
            guard let film = SimulatedFilm.all.first(where: { $0.id == tmdbID }) else {
                throw FerryError(.usage, "\(words[1]) is not a film TMDB knows here; add one of \(SimulatedFilm.all.map(\.key))")
            }
            _ = try await library.add(title: film.typed.title, year: film.typed.year, recommender: words[2])
        case ("add", 3, _?): throw FerryError(.usage, "\(words[1]) is on the list already")
        case ("update", 4, let movie?) where words[2] == "status":
            try await library.update(movie.id, MovieChanges(status: words[3]))
        case ("update", 4, let movie?) where words[2] == "rating":
            try await library.update(movie.id, MovieChanges(rating: Int(words[3])))
        case ("remove", 2, let movie?): try await library.remove(movie.id)
        case (_, _, nil): throw FerryError(.notFound, "\(words[1]) is not on the list")
        default: throw FerryError(.usage, "unknown movies action \(action)")
        }
        if words[0] == "add", before != nil { adopting[device.index, default: []].insert(tmdbID) }
        let left: Entry?
        if let before, adopting[device.index]?.contains(tmdbID) == true {
            if words[0] == "remove" {
                // The pending movie is forgotten, or its removal follows an add that left
                // without an answer: the server's entry stays, or goes.
                unfollowed.insert(tmdbID)
                adopting[device.index]?.remove(tmdbID)
            }
            left = Self.adopted(before, changedBy: words)
        } else {
            left = try await Self.movie(tmdbID, in: library).map(Self.entry)
        }
        // `.some`: a film the write took off the list is remembered as off the list, not forgotten.
        lastWrite[tmdbID, default: [:]][device.index] = .some(left)
    }

    /// The server's entry a pending add adopts, as `words` (an action) changes it: an add
    /// changes nothing, an update its one field.
    private static func adopted(_ entry: Entry, changedBy words: [String]) -> Entry {
        var entry = entry
        switch (words[0], words.count > 3 ? words[2] : "") {
        case ("update", "status"): entry.status = words[3]
        case ("update", "rating"): entry.rating = Int(words[3])
        default: break
        }
        return entry
    }

    func check(_ world: SimulationWorld) async throws -> [SimulationViolation] {
        let server = try await serverList(world)
        var violations: [SimulationViolation] = []
        for device in world.devices {
            let library = try MoviesLibrary(runtime: device.runtime)
            let waiting = try await library.pending()
            if !waiting.isEmpty {
                violations.append(
                    SimulationViolation("not-enriched", "device \(device.index) still waits to match \(waiting.map(\.title).sorted()) on TMDB")
                )
            }
            let local = try await library.movies().filter { $0.sync != .removing && $0.tmdbId != nil }
            let shown = Dictionary(local.map { (Listed($0).tmdbID, Listed($0)) }, uniquingKeysWith: { first, _ in first })
            if shown != server || local.count != shown.count {
                violations.append(
                    SimulationViolation("diverged", "device \(device.index) lists \(Self.show(shown)), the server \(Self.show(server))")
                )
            }
        }
        for film in SimulatedFilm.all {
            guard let listed = server[film.id] else { continue }
            if listed.title != film.title || listed.year != film.year || listed.director != film.director {
                violations.append(
                    SimulationViolation("not-enriched", "the server lists TMDB \(film.id) as \(listed), TMDB has \(film.title) (\(film.year ?? 0)) by \(film.director)")
                )
            }
        }
        for (tmdbID, writers) in lastWrite.sorted(by: { $0.key < $1.key }) where writers.count == 1 && !unfollowed.contains(tmdbID) {
            let (device, left) = writers.first!
            let now = server[tmdbID].map(\.entry)
            if now != left {
                violations.append(
                    SimulationViolation("lost-write", "device \(device) last left TMDB \(tmdbID) \(left.map { "listed: \($0)" } ?? "off the list") and no other device wrote it, but the server has it \(now.map { "listed: \($0)" } ?? "off the list")")
                )
            }
        }
        return violations
    }

    /// A listed movie, as compared between a device and the server.
    struct Listed: Equatable, CustomStringConvertible {
        var tmdbID: Int
        var title: String
        var year: Int?
        var director: String?
        var entry: Entry

        init(_ movie: Movie) {
            tmdbID = movie.tmdbId ?? 0
            title = movie.title
            year = movie.year
            director = movie.director
            entry = MoviesWorkload.entry(movie)
        }

        init(json: [String: Any]) {
            tmdbID = json["tmdb_id"] as? Int ?? 0
            title = json["title"] as? String ?? ""
            year = json["year"] as? Int
            director = json["director"] as? String
            entry = Entry(
                status: json["status"] as? String ?? "",
                rating: json["my_rating"] as? Int,
                recommender: json["recommender"] as? String
            )
        }

        var description: String { "\(title) (\(year.map(String.init) ?? "?")) by \(director ?? "?"): \(entry)" }
    }

    static func entry(_ movie: Movie) -> Entry {
        Entry(status: movie.status, rating: movie.myRating, recommender: movie.recommender)
    }

    static func tmdbID(_ key: String) -> Int? {
        SimulatedFilm.all.first { $0.key == key }?.id ?? demoFilms.first { $0.0 == key }?.1
    }

    /// The film on the device's list (matched, or still waiting under the title typed), unless removed.
    static func movie(_ tmdbID: Int, in library: MoviesLibrary) async throws -> Movie? {
        let typed = SimulatedFilm.all.first { $0.id == tmdbID }?.typed
        return try await library.movies().first { movie in
            movie.sync != .removing
                && (movie.tmdbId == tmdbID || (movie.tmdbId == nil && movie.title == typed?.title && movie.year == typed?.year))
        }
    }

    /// The demo user's list on the server, by TMDB id.
    private func serverList(_ world: SimulationWorld) async throws -> [Int: Listed] {
        let movies = try await world.json("/v1/movies", as: world.devices[0])["movies"] as? [[String: Any]] ?? []
        return Dictionary(movies.map { (Listed(json: $0).tmdbID, Listed(json: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    private static func show(_ list: [Int: Listed]) -> String {
        list.keys.sorted().map { "\($0): \(list[$0]!)" }.joined(separator: "; ")
    }
}
