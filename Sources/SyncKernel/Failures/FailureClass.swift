import Foundation

/// The kernel's reading of why a send failed; decided in one place, `FailureClass.classify`.
public enum FailureClass: Sendable, Equatable {
    /// No answer from the remote (`TransportFailure`, or a `requires_connection` error):
    /// waits for connectivity and spends no attempt.
    case offline(reason: String)
    /// The remote may recover (5xx, 408, 429, a 409 with `Retry-After` or
    /// `idempotency_key_in_flight`, a `remote_unavailable` error, an answer that cannot be
    /// read, or an error the kernel does not know), or room may be made (a `storage_unavailable` error: a full disk, a file
    /// cache full of pinned files): back off with jitter, honouring `Retry-After`; spends
    /// one attempt.
    case transient(reason: String, retryAfter: TimeInterval?)
    /// A 401 that the transport's one refresh did not cure, or a `needs_login` error: hold
    /// the plugin's queue until the credential provider has a credential other than the
    /// refused one. Spends no attempt.
    case unauthorized(reason: String)
    /// 409 or 412, or `SendOutcome.conflict`: the remote disagrees; the operation's conflict
    /// policy decides.
    case conflict(status: Int, reason: String, remote: Data?)
    /// Any other 4xx, an answer larger than `sync.max_answer`,
    /// `SendOutcome.needsPerson`, or any other `FerryError`: a dead letter with the reason,
    /// after one attempt.
    case rejected(reason: String)
    /// The plugin's configuration must change (`SendOutcome.needsConfiguration`, or a
    /// `configuration` error): the operation waits, spending nothing, until it does.
    case misconfigured(reason: String)
    /// The operation refers to another entity of its plugin that has not reached the remote
    /// yet (`SendOutcome.waitsFor`): it waits for it, spending nothing.
    case waitsFor(entity: String, reason: String)

    /// Why it failed, in words a person reads.
    public var reason: String {
        switch self {
        case .offline(let reason), .transient(let reason, _), .unauthorized(let reason), .conflict(_, let reason, _),
            .rejected(let reason), .misconfigured(let reason), .waitsFor(_, let reason):
            reason
        }
    }

    /// Classifies any error a handler or the transport threw. `now` resolves HTTP-date `Retry-After` values.
    ///
    /// `Retry-After` is read as delay seconds or an HTTP date and capped at 24 hours.
    public static func classify(_ error: any Error, now: Date) -> FailureClass {
        switch error {
        case let failure as TransportFailure:
            return .offline(reason: failure.reason)
        case let failure as RemoteFailure:
            return classify(failure, now: now)
        case let failure as AnswerTooLarge:
            return .rejected(reason: failure.description)
        case let error as FerryError:
            switch error.code {
            case .requiresConnection: return .offline(reason: error.message)
            case .needsLogin: return .unauthorized(reason: error.message)
            case .remoteUnavailable, .storageUnavailable: return .transient(reason: error.message, retryAfter: nil)
            case .configuration: return .misconfigured(reason: error.message)
            default: return .rejected(reason: error.message)
            }
        case is DecodingError:
            // Garbled on the way (a proxy's page, a body cut short) more often than a remote
            // that speaks another language: sent again with the same Idempotency-Key, the
            // remote answers from its record; `retry.max_attempts` bounds the rest.
            return .transient(reason: "the remote's answer could not be read: \(error)", retryAfter: nil)
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
        case 409 where failure.isUnreadable, 412 where failure.isUnreadable:
            // A conflict whose answer was cut short or replaced on the way says nothing of
            // the remote's state: it goes again with its key, and the remote answers again.
            return .transient(
                reason: "the remote's \(failure.status) answer could not be read (\(failure.reason)); it goes again",
                retryAfter: retryAfter
            )
        case 409, 412:
            return .conflict(status: failure.status, reason: failure.reason, remote: failure.currentEntity)
        default:
            return .rejected(reason: failure.reason)
        }
    }
}
