import FerryHashing
import Foundation

/// People who recommended movies, derived from the caller's list and kept as entities
/// so that they have versions and a changes feed.
enum People {
    static let collection = "people"

    static var routes: [Route] {
        [
            Route(.get, "/v1/people") { request, env in
                let user = try request.requireUser()
                let people = try await env.database.read { db in try Entities.list(db, collection, scope: user.scope) }
                return .json(["people": .array(people)])
            },
            Route(.get, "/v1/people/changes", handler: ChangesFeed.handler(collection) { try $0.requireUser().scope }),
        ]
    }

    /// A person's id (protocol §9): the name folded (case, accents), with runs of characters
    /// other than ASCII letters and digits turned into `-`. A name that leaves nothing (no
    /// Latin letters or digits: `Ёж`, `宮崎`) is `person-` and 8 hex digits of its SHA-256,
    /// so that two such names stay two people.
    static func id(for name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var id = ""
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII {
                id.unicodeScalars.append(scalar)
            } else if !id.hasSuffix("-") {
                id += "-"
            }
        }
        let trimmed = id.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return trimmed.isEmpty ? "person-\(SHA256Hasher.hex(hashedForm(name)).prefix(8))" : String(trimmed.prefix(100))
    }

    /// What a name without Latin letters is hashed as: trimmed of white space, lowercased,
    /// in Unicode NFC, so that `Ёж`, `ёж` and ` Ёж` are one person however they were typed.
    static func hashedForm(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().precomposedStringWithCanonicalMapping
    }

    /// Brings the people of `scope` in line with its movies: new, changed, removed.
    static func recompute(_ db: any SQLSession, scope: String, now: Date) throws {
        var wanted: [String: (name: String, movies: [JSON])] = [:]
        for movie in try Entities.list(db, MovieRoutes.collection, scope: scope) {
            guard let name = movie["recommender"]?.stringValue, let movieID = movie["id"] else { continue }
            let id = id(for: name)
            wanted[id, default: (name, [])].movies.append(movieID)
        }
        let existing = try Entities.list(db, collection, scope: scope)
        for person in existing {
            guard let id = person["id"]?.stringValue else { continue }
            if wanted[id] == nil { try Entities.delete(db, collection, scope: scope, id: id, now: now) }
        }
        let byID = Dictionary(
            existing.compactMap { p in p["id"]?.stringValue.map { ($0, p) } },
            uniquingKeysWith: { a, _ in a }
        )
        for (id, person) in wanted {
            let data: JSON = [
                "name": .string(person.name), "movie_ids": .array(person.movies),
                "movie_count": .int(person.movies.count),
            ]
            if let current = byID[id], current["name"] == data["name"], current["movie_ids"] == data["movie_ids"] {
                continue
            }
            try Entities.put(db, collection, scope: scope, id: id, data: data, now: now)
        }
    }
}
