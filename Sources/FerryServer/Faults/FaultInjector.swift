import Synchronization

/// Decides, request by request, which fault (if any) to inject.
final class FaultInjector: Sendable {
    /// What happens to one request.
    enum Decision: Sendable, Equatable {
        case none
        /// Answer this error instead of handling the request.
        case respond(FaultKind)
        /// Handle the request, then damage the response.
        case damage(FaultKind)
    }

    private struct State {
        var settings: FaultSettings
        var random: SplitMix64
    }

    private let state: Mutex<State>

    init(_ settings: FaultSettings) {
        state = Mutex(State(settings: settings, random: SplitMix64(seed: settings.seed)))
    }

    var settings: FaultSettings {
        state.withLock { $0.settings }
    }

    /// Replaces the settings and reseeds the generator.
    func update(_ settings: FaultSettings) {
        state.withLock { $0 = State(settings: settings, random: SplitMix64(seed: settings.seed)) }
    }

    /// The added latency and the decision for a request to `path`.
    func decide(path: String) -> (latencyMilliseconds: Int, decision: Decision) {
        state.withLock { state in
            let settings = state.settings
            if let prefix = settings.pathPrefix, !path.hasPrefix(prefix) { return (0, .none) }
            if var next = state.settings.failNext, next.count > 0 {
                next.count -= 1
                state.settings.failNext = next.count > 0 ? next : nil
                return (settings.latencyMilliseconds, Self.decision(for: next.kind))
            }
            let rates: [(Double, FaultKind)] = [
                (settings.errorRate, .internalError), (settings.rateLimitRate, .rateLimited),
                (settings.unavailableRate, .unavailable), (settings.dropRate, .drop),
                (settings.truncateRate, .truncate),
            ]
            for (rate, kind) in rates where rate > 0 {
                if state.random.nextUnit() < rate {
                    return (settings.latencyMilliseconds, Self.decision(for: kind))
                }
            }
            return (settings.latencyMilliseconds, .none)
        }
    }

    private static func decision(for kind: FaultKind) -> Decision {
        switch kind {
        case .internalError, .rateLimited, .unavailable: .respond(kind)
        case .drop, .truncate: .damage(kind)
        }
    }

    /// The error answered for an injected status fault.
    func error(for kind: FaultKind) -> APIError {
        let retryAfter = String(max(0, settings.retryAfterSeconds))
        switch kind {
        case .rateLimited:
            return APIError(
                .tooManyRequests,
                "rate_limited",
                "Too many requests (injected fault); retry later.",
                headers: ["Retry-After": retryAfter]
            )
        case .unavailable:
            return APIError(
                .serviceUnavailable,
                "unavailable",
                "Service unavailable (injected fault); retry later.",
                headers: ["Retry-After": retryAfter]
            )
        default:
            return APIError(.internalServerError, "injected_fault", "Internal error (injected fault).")
        }
    }
}
