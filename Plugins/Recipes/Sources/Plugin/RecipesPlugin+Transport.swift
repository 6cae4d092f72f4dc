import Foundation
import SyncKernel

extension RecipesPlugin {
    /// Sends `request`; a `409 idempotency_key_in_flight` (the remote is still working on
    /// an earlier send of this very operation, e.g. one a killed runner left behind) is a
    /// reason to wait and retry, not a conflict.
    static func send(through transport: HTTPTransport, _ request: HTTPRequest) async throws -> HTTPResponse {
        do {
            return try await transport.send(request)
        } catch let failure as RemoteFailure
            where failure.status == 409 && failure.reason.contains("idempotency_key_in_flight")
        {
            throw FerryError(
                .remoteUnavailable,
                "the server is still handling an earlier send of this operation; retrying",
                underlying: failure
            )
        }
    }
}
