import Foundation
import SyncKernel

/// Turns the remote's family errors into messages a person can act on.
enum FamilyErrors {
    static func explain(_ error: any Error, doing what: String) -> any Error {
        guard let body = RemoteErrorBody(error) else {
            if error is FerryError { return error }
            return FerryError(.rejected, "\(what) failed: \(error)", underlying: error)
        }
        switch (body.status, body.code) {
        case (401, _):
            return FerryError(
                .needsLogin,
                "\(what) was refused: the session has ended; run `ferry auth login`",
                underlying: error
            )
        case (404, "group_not_found"):
            return FerryError(.notFound, "\(what): no such group; `ferry family groups` lists yours", underlying: error)
        case (404, "round_not_found"):
            return FerryError(
                .notFound,
                "\(what): no such round; `ferry family group show GROUP` shows a group's active round",
                underlying: error
            )
        case (404, "user_not_found"):
            return FerryError(.notFound, "\(what): \(body.message) Check the username", underlying: error)
        case (404, "tmdb_movie_not_found"):
            return FerryError(.notFound, "\(what): \(body.message) Check the TMDB id", underlying: error)
        case (400, "unknown_attendee"):
            return FerryError(
                .rejected,
                "\(what): \(body.message) `ferry family group show GROUP` lists the group's members",
                underlying: error
            )
        case (403, _):
            return FerryError(.rejected, "\(what) was refused: \(body.message)", underlying: error)
        case (409, "round_not_active"):
            return FerryError(
                .conflict,
                "\(what): \(body.message) Start a new round with `ferry family round start GROUP`",
                underlying: error
            )
        case (409, _):
            return FerryError(.conflict, "\(what): \(body.message)", underlying: error)
        default:
            if error is FerryError { return error }
            return FerryError(
                .rejected,
                "\(what) failed: \(body.status) \(body.code): \(body.message)",
                underlying: error
            )
        }
    }
}
