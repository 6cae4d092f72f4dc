import Foundation

/// The kernel's reading of why a send failed; decided in one place, `FailureClass.classify`.
public enum FailureClass: Sendable, Equatable {
    /// No answer from the remote: waits for connectivity and spends no attempt.
    case offline(reason: String)
    /// The remote may recover (5xx, 408, 429): back off, honouring `Retry-After`.
    case transient(reason: String, retryAfter: TimeInterval?)
    /// 401: refresh the credentials, else hold the plugin's queue until someone logs in.
    case unauthorized(reason: String)
    /// 409 or 412: the remote disagrees; the operation's conflict policy decides.
    case conflict(status: Int, reason: String, remote: Data?)
    /// Any other 4xx, or an answer that cannot be read: a dead letter with the reason.
    case rejected(reason: String)
    /// The operation refers to another entity of its plugin that has not reached the remote
    /// yet (`WaitsForEntity`): it waits for it, spending nothing.
    case waitsFor(entity: String, reason: String)

    /// Classifies any error a handler or the transport threw. `now` resolves HTTP-date `Retry-After` values.
    public static func classify(_ error: any Error, now: Date) -> FailureClass {
        switch error {
        case let failure as TransportFailure:
            return .offline(reason: failure.reason)
        case let failure as RemoteFailure:
            return classify(failure, now: now)
        case let failure as AnswerTooLarge:
            return .rejected(reason: failure.description)
        case let wait as WaitsForEntity:
            return .waitsFor(entity: wait.entity, reason: wait.reason)
        case let error as FerryError:
            switch error.code {
            case .requiresConnection: return .offline(reason: error.message)
            case .needsLogin: return .unauthorized(reason: error.message)
            case .remoteUnavailable: return .transient(reason: error.message, retryAfter: nil)
            default: return .rejected(reason: error.message)
            }
        case is DecodingError:
            return .rejected(reason: "the remote's answer could not be read: \(error)")
        default:
            return .transient(reason: String(describing: error), retryAfter: nil)
        }
    }

    static func classify(_ failure: RemoteFailure, now: Date) -> FailureClass {
        let retryAfter = failure.headers["retry-after"].flatMap { RetryAfter.seconds(from: $0, now: now) }
        switch failure.status {
        case 401:
            return .unauthorized(reason: failure.reason)
        case 408, 429, 500...599:
            return .transient(reason: failure.reason, retryAfter: retryAfter)
        case 409 where retryAfter != nil || failure.code == "idempotency_key_in_flight":
            // A conflict that says when to come back, or that the same idempotency key is
            // still being processed (an earlier send a killed runner left behind), is not a
            // disagreement but "busy".
            return .transient(reason: failure.reason, retryAfter: retryAfter)
        case 409, 412:
            return .conflict(status: failure.status, reason: failure.reason, remote: failure.currentEntity)
        default:
            return .rejected(reason: failure.reason)
        }
    }
}
