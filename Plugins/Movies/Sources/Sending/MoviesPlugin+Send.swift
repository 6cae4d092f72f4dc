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

    /// The body of `POST /v1/movies`: the movie as fetched from TMDB, and who recommended it.
    struct AddBody: Encodable {
        var tmdbId: Int
        var title: String
        var originalTitle: String?
        var year: Int?
        var overview: String?
        var genres: [String]
        var director: String?
        var runtime: Int?
        var imdbId: String?
        var posterPath: String?
        var recommender: String?

        init(_ details: TMDBMovieDetails, recommender: String?) {
            tmdbId = details.id
            title = details.title
            originalTitle = details.originalTitle
            year = details.year
            overview = details.overview.flatMap { $0.isEmpty ? nil : $0 }
            genres = (details.genres ?? []).map(\.name)
            director = details.director
            runtime = details.runtime.flatMap { $0 > 0 ? $0 : nil }
            imdbId = details.imdb
            posterPath = details.posterPath
            self.recommender = recommender
        }
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
                    headers: [("Content-Type", "application/json")] + operation.ifMatch,
                    body: try patch.requestBody()
                )
            )
        } catch let failure as RemoteFailure where isGone(failure) {
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
                    headers: operation.ifMatch
                )
            )
        } catch let failure as RemoteFailure where isGone(failure) {
            return .deleted(alreadyGone: "\(id) was already gone from the server", apply: removed)
        }
        return .deleted(apply: removed)
    }

    /// `add`: by TMDB id, with the movie's details fetched from TMDB. A movie already in
    /// the list is adopted as it is on the server.
    func sendAdd(_ operation: QueuedOperation, context: PluginContext) async throws -> SendOutcome {
        let payload = try operation.decodePayload(AddPayload.self)
        guard let tmdbID = payload.tmdbId else { throw FerryError(.plugin, "a movies add operation has no tmdb_id") }
        return try await add(tmdbID, recommender: payload.recommender, operation: operation, context: context)
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
        return try await add(tmdbID, recommender: payload.recommender, operation: operation, context: context)
    }

    /// Adds TMDB `tmdbID` with its details from TMDB, once the removals queued before this
    /// add that may be of the same movie have gone: the server keeps one entry per TMDB id,
    /// so an add sent first would adopt the entry the removal then deletes.
    private func add(
        _ tmdbID: Int,
        recommender: String?,
        operation: QueuedOperation,
        context: PluginContext
    ) async throws -> SendOutcome {
        if let removal = try await context.store.read({ db in
            try Self.earlierRemoval(of: tmdbID, before: operation, in: db)
        }) {
            return .waitsFor(
                entity: removal,
                reason: "the removal of \(removal), queued before this add, may be of the same movie; this waits for it"
            )
        }
        let body = AddBody(try await tmdb.details(tmdbID), recommender: recommender)
        return try await addToServer(body, operation: operation, context: context)
    }

    /// A removal queued before `operation` that is of TMDB `tmdbID`, or of a movie whose add
    /// was sent without a recorded answer (still under its local id: its TMDB id is not
    /// known here); nil when there is none.
    private static func earlierRemoval(of tmdbID: Int, before operation: QueuedOperation, in db: Database) throws -> String? {
        try Outbox.operations(plugin: name, kind: "remove", in: db).first { removal in
            guard removal.state != .dead, removal.sequence < operation.sequence else { return false }
            return try PendingMovies.isLocal(removal.entity) || MovieRows.tmdbID(of: removal.entity, in: db) == tmdbID
        }?.entity
    }

    /// `POST /v1/movies` with the details fetched from TMDB; on `409 movie_already_in_list`
    /// the existing entry is adopted. The server's entry replaces the pending row; its id
    /// becomes the movie's id.
    private func addToServer(
        _ add: AddBody,
        operation: QueuedOperation,
        context: PluginContext
    ) async throws -> SendOutcome {
        let body: Data
        var already: String?
        do {
            body = try await context.transport.send(try .json("POST", "/v1/movies", body: add)).body
        } catch let failure as RemoteFailure where failure.status == 409 {
            guard let current = failure.currentEntity else { throw failure }
            already = "TMDB \(add.tmdbId) was already in the list; keeping the server's entry"
            body = current
        }
        let movie = try ServerMovie.decode(body)
        let now = context.clock.now()
        let localID = operation.entity
        let remoteID = PendingMovies.isLocal(localID) ? movie.id : nil
        let stored: LocalChange = { [movie] db in
            try MovieRows.store(movie, json: body, now: now, in: db)
            try PendingMovies.delete(localID, in: db)
        }
        guard let already else { return .delivered(remoteID: remoteID, remote: body, apply: stored) }
        return .alreadyDone(reason: already, remoteID: remoteID, apply: stored)
    }

    private func storing(_ body: Data, clock: any KernelClock) throws -> SendOutcome {
        let movie = try ServerMovie.decode(body)
        let now = clock.now()
        return .delivered(remote: body) { db in try MovieRows.store(movie, json: body, now: now, in: db) }
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

    /// Whether the server says the movie is gone: `404 movie_not_found`, or, to a write with
    /// `If-Match`, `412` with `details.current: null` (protocol §4).
    private func isGone(_ failure: RemoteFailure) -> Bool {
        (failure.status == 404 && failure.code == "movie_not_found")
            || (failure.status == 412 && failure.currentEntity == Data("null".utf8))
    }
}
