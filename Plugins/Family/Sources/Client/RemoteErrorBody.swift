import Foundation
import SyncKernel

/// The remote's error shape (`{"error": {"code", "message", "details"}}`) read from a failure.
struct RemoteErrorBody: Sendable {
    let status: Int
    let code: String
    let message: String
    /// `details.current`, JSON-encoded.
    let current: Data?
    /// `details` as strings, for the values a message quotes.
    let details: [String: String]

    /// Reads the remote failure inside `error` (as thrown, or wrapped in a `FerryError`).
    init?(_ error: any Error) {
        let failure = (error as? RemoteFailure) ?? ((error as? FerryError)?.underlying as? RemoteFailure)
        guard let failure,
            let object = try? JSONSerialization.jsonObject(with: failure.body) as? [String: Any],
            let inner = object["error"] as? [String: Any]
        else { return nil }
        status = failure.status
        code = inner["code"] as? String ?? ""
        message = inner["message"] as? String ?? ""
        current = failure.currentEntity
        let raw = inner["details"] as? [String: Any] ?? [:]
        details = raw.compactMapValues { $0 as? String }
    }
}
