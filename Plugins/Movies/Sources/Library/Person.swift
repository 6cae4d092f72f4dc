import Foundation
import SyncKernel

/// Someone who recommended movies, derived from the local list (so it includes movies
/// added offline and changes not yet sent). Ids follow the protocol's rule (§9), so they
/// are the server's: see ``identifier(_:)``.
public struct Person: Codable, Sendable, Equatable {
    /// The id: the name lower-cased, other characters turned into `-`; `person-<hash>` for
    /// a name without Latin letters or digits.
    public var id: String
    /// The name as written on the movies.
    public var name: String
    /// The movies they recommended.
    public var movieIds: [String]
    /// How many.
    public var movieCount: Int

    /// Groups `movies` by recommender, most recommendations first, then by name.
    static func people(from movies: [Movie]) -> [Person] {
        var byID: [String: Person] = [:]
        for movie in movies where movie.sync != .removing {
            guard let name = movie.recommender?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { continue }
            let id = identifier(name)
            byID[id, default: Person(id: id, name: name, movieIds: [], movieCount: 0)].movieIds.append(movie.id)
            byID[id]?.movieCount += 1
        }
        return byID.values.sorted { ($0.movieCount, $1.name.lowercased()) > ($1.movieCount, $0.name.lowercased()) }
    }

    /// A person's id (protocol §9): the name folded (case, accents), with runs of characters
    /// other than ASCII letters and digits turned into `-`. A name that leaves nothing (no
    /// Latin letters or digits: `Ёж`, `宮崎`) is `person-` and 8 hex digits of the SHA-256 of
    /// the name trimmed, lowercased and in Unicode NFC, so that two such names stay two people.
    static func identifier(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var id = ""
        for scalar in folded.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                id.unicodeScalars.append(scalar)
            } else if !id.hasSuffix("-") {
                id += "-"
            }
        }
        let trimmed = String(id.trimmingCharacters(in: .init(charactersIn: "-")).prefix(100))
        guard trimmed.isEmpty else { return trimmed }
        let hashed = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            .precomposedStringWithCanonicalMapping
        return "person-" + SHA256Hasher.hex(hashed).prefix(8)
    }
}
