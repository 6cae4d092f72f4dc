import Foundation

/// The catalogue fields of a movie entry, as the client fetched them from TMDB and sends
/// them in `POST /v1/movies`. The server checks their types and sizes and keeps them as
/// sent: it never looks the film up itself, so any film TMDB has can go in a list.
enum MovieDetails {
    /// The fields, each optional but `title`.
    static let fields: Set<String> = [
        "title", "original_title", "year", "overview", "genres", "director", "runtime", "imdb_id", "poster_path",
    ]

    /// The catalogue fields of `body`, checked; absent optional fields are stored as null
    /// (`genres` as `[]`).
    static func validated(_ body: [String: JSON]) throws -> [String: JSON] {
        guard let title = body["title"] else {
            throw APIError.invalidField(
                "title",
                "Field 'title' is required: send the movie's details as fetched from TMDB (docs/protocol.md §9)."
            )
        }
        guard let text = title.stringValue, (1...500).contains(text.count) else {
            throw APIError.invalidField("title", "title must be a string of 1 to 500 characters.")
        }
        var result: [String: JSON] = ["title": title, "genres": .array([])]
        for key in ["original_title", "overview", "director", "imdb_id", "poster_path", "year", "runtime"] {
            result[key] = .null
        }
        for (key, value) in body where fields.contains(key) && key != "title" && !value.isNull {
            try check(key, value)
            result[key] = value
        }
        return result
    }

    private static func check(_ key: String, _ value: JSON) throws {
        switch key {
        case "year":
            guard let year = value.intValue, (1870...2200).contains(year) else {
                throw APIError.invalidField(key, "year must be a release year from 1870 to 2200, or null.")
            }
        case "runtime":
            guard let minutes = value.intValue, (0...10_000).contains(minutes) else {
                throw APIError.invalidField(key, "runtime must be a number of minutes from 0 to 10000, or null.")
            }
        case "genres":
            guard let genres = value.arrayValue, genres.count <= 50,
                genres.allSatisfy({ ($0.stringValue.map { (1...100).contains($0.count) }) ?? false })
            else {
                throw APIError.invalidField(key, "genres must be a list of at most 50 genre names.")
            }
        case "imdb_id":
            guard let id = value.stringValue, id.hasPrefix("tt"), (3...20).contains(id.count),
                id.dropFirst(2).allSatisfy({ ("0"..."9").contains($0) })
            else {
                throw APIError.invalidField(key, "imdb_id must be an IMDb id such as tt0113277, or null.")
            }
        case "poster_path":
            guard let path = value.stringValue, path.hasPrefix("/"), path.count <= 300, !path.contains("..") else {
                throw APIError.invalidField(key, "poster_path must be a TMDB file path such as /abc.jpg, or null.")
            }
        default:
            guard let text = value.stringValue, text.count <= (key == "overview" ? 10_000 : 500) else {
                throw APIError.invalidField(key, "\(key) must be a string (at most \(key == "overview" ? 10_000 : 500) characters), or null.")
            }
        }
    }
}
