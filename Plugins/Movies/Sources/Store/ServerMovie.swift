import Foundation
import SyncKernel

/// A movie as the server sends it (`docs/protocol.md` §9).
struct ServerMovie: Codable, Sendable, Equatable {
    var id: String
    var tmdbId: Int?
    var imdbId: String?
    var title: String
    var originalTitle: String?
    var year: Int?
    var genres: [String]?
    var director: String?
    var overview: String?
    var posterPath: String?
    var runtime: Int?
    var status: String
    var myRating: Int?
    var dateWatched: String?
    var recommender: String?
    var createdAt: String?
    var updatedAt: String?
    var version: Int?

    /// Decodes one entity; an entity that does not decode is reported with its id.
    static func decode(_ data: Data) throws -> ServerMovie {
        do {
            return try JSONDecoder.ferry.decode(ServerMovie.self, from: data)
        } catch {
            // An answer cut short or replaced on the way (a proxy's page): the write goes
            // again, and the server replays what it did.
            throw FerryError(
                .remoteUnavailable,
                "the server sent a movie that could not be read (\(error)); it is asked again",
                underlying: error
            )
        }
    }
}
