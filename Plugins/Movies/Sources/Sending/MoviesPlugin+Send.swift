import Foundation
import GRDB
import SyncKernel

extension MoviesPlugin {
    /// The payload of `add` and `add_title`.
    struct AddPayload: Codable, Sendable {
        var tmdbId: Int?
        var title: String?
        var year: Int?
        var recommender: String?
    }

    /// The body of `POST /v1/movies`.
    struct AddBody: Encodable {
        var tmdbId: Int
        var recommender: String?
    }

    func sendUpdate(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        guard let id = serverID(operation) else { return neverAdded(operation) }
        let patch = try MoviePatch(payload: operation.payload)
        let response: HTTPResponse
        do {
            response = try await context.transport.send(
                HTTPRequest(
                    "PATCH",
                    "/v1/movies/\(id)",
                    headers: [("Content-Type", "application/json")] + precondition(operation),
                    body: try patch.requestBody()
                )
            )
        } catch let failure as RemoteFailure where failure.status == 404 && failure.code == "movie_not_found" {
            // Deleted on another device: a conflict (`current: null`) for the policy to
            // decide, not a dead letter.
            return .conflict(reason: "\(id) was deleted on the server", remote: Data("null".utf8))
        }
        return try storing(response.body, clock: context.clock)
    }

    func sendRemove(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        guard let id = serverID(operation) else { return neverAdded(operation) }
        let removed: LocalChange = { db in try MovieRows.delete(id, in: db) }
        do {
            _ = try await context.transport.send(
                HTTPRequest(
                    "DELETE",
                    "/v1/movies/\(id)",
                    headers: precondition(operation)
                )
            )
        } catch let failure as RemoteFailure where failure.status == 404 && failure.code == "movie_not_found" {
            return .alreadyDone(reason: "\(id) was already gone from the server", apply: removed)
        }
        return .delivered(apply: removed)
    }

    /// `add`: by TMDB id. A movie already in the list is adopted as it is on the server.
    func sendAdd(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        let payload = try operation.decodePayload(AddPayload.self)
        guard let tmdbID = payload.tmdbId else { throw FerryError(.plugin, "a movies add operation has no tmdb_id") }
        return try await addToServer(
            tmdbID: tmdbID,
            recommender: payload.recommender,
            imdbID: nil,
            operation: operation,
            context: context
        )
    }

    /// `add_title`: match the title on TMDB (unless a TMDB id was chosen by hand), then add
    /// by TMDB id. No single best match: the pending row records the reason and the
    /// candidates, and the operation becomes a dead letter that `movies resolve` revives.
    /// A refused TMDB token throws a `configuration` error: the kernel holds the match until
    /// plugins.movies changes.
    func sendAddTitle(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        let payload = try operation.decodePayload(AddPayload.self)
        let localID = operation.entity
        let chosen = try await context.store.read { db in try PendingMovies.get(localID, in: db)?.tmdbId }
        let tmdbID: Int
        if let known = chosen ?? payload.tmdbId {
            tmdbID = known
        } else {
            let title = payload.title ?? ""
            switch try await Enricher(tmdb: tmdb, matcher: TitleMatcher(ties: settings.matchTies)).match(
                title: title,
                year: payload.year
            ) {
            case .match(let result):
                tmdbID = result.id
            case .pending(let reason, let candidates):
                let offered = candidates.prefix(20).map {
                    PendingMovie.Candidate(tmdbId: $0.id, title: $0.title, year: $0.year, popularity: $0.popularity)
                }
                return .needsPerson(reason: "\(localID) needs a choice: \(reason)") { db in
                    try PendingMovies.needsChoice(localID, reason: reason, candidates: Array(offered), in: db)
                }
            }
        }
        let details = try await tmdb.details(tmdbID)
        return try await addToServer(
            tmdbID: tmdbID,
            recommender: payload.recommender,
            imdbID: details.imdb,
            operation: operation,
            context: context
        )
    }

    /// `POST /v1/movies`; on `409 movie_already_in_list` the existing entry is adopted.
    /// The server's entry replaces the pending row; its id becomes the movie's id.
    private func addToServer(
        tmdbID: Int,
        recommender: String?,
        imdbID: String?,
        operation: QueuedOperation,
        context: PluginContext
    ) async throws -> SendOutcome {
        let body: Data
        var already: String?
        do {
            let response = try await context.transport.send(
                try .json(
                    "POST",
                    "/v1/movies",
                    body: AddBody(tmdbId: tmdbID, recommender: recommender)
                )
            )
            body = response.body
        } catch let failure as RemoteFailure where failure.status == 409 {
            guard let current = failure.currentEntity else { throw failure }
            already = "TMDB \(tmdbID) was already in the list; keeping the server's entry"
            body = current
        }
        var movie = try ServerMovie.decode(body)
        if movie.imdbId?.isEmpty ?? true, let imdbID { movie.imdbId = imdbID }
        let now = context.clock.now()
        let localID = operation.entity
        let remoteID = PendingMovies.isLocal(localID) ? movie.id : nil
        let stored: LocalChange = { [movie] db in
            try MovieRows.store(movie, json: body, now: now, in: db)
            try PendingMovies.delete(localID, in: db)
        }
        guard let already else { return .delivered(remoteID: remoteID, apply: stored) }
        return .alreadyDone(reason: already, remoteID: remoteID, apply: stored)
    }

    private func storing(_ body: Data, clock: any KernelClock) throws -> SendOutcome {
        let movie = try ServerMovie.decode(body)
        let now = clock.now()
        return .delivered { db in try MovieRows.store(movie, json: body, now: now, in: db) }
    }

    /// The server id an update or remove goes to; nil for a local id: the movie never
    /// reached the server.
    private func serverID(_ operation: QueuedOperation) -> String? {
        PendingMovies.isLocal(operation.entity) ? nil : operation.entity
    }

    private func neverAdded(_ operation: QueuedOperation) -> SendOutcome {
        .needsPerson(
            reason: "\(operation.entity) was never added to the server (its add was discarded); remove it with `ferry movies remove \(operation.entity)`"
        )
    }

    /// `If-Match` with the version the change was made against, unless a conflict was resolved for this write.
    private func precondition(_ operation: QueuedOperation) -> [(String, String)] {
        guard !operation.force, let base = operation.base, let movie = try? ServerMovie.decode(base),
            let version = movie.version
        else { return [] }
        return [("If-Match", "\"\(version)\"")]
    }
}
