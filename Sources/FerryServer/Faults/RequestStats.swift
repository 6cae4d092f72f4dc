import HTTPTypes
import Synchronization

/// Counts the requests the server received, per `METHOD /path/{template}`.
///
/// Requests sent inside `POST /v1/batch` are counted apart, under `batched`.
final class RequestStats: Sendable {
    private struct Counts {
        var requests: [String: Int] = [:]
        var batched: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())

    func record(method: HTTPRequest.Method, route: String, batched: Bool = false) {
        let key = "\(method.rawValue) \(route)"
        counts.withLock { counts in
            if batched {
                counts.batched[key, default: 0] += 1
            } else {
                counts.requests[key, default: 0] += 1
            }
        }
    }

    func reset() {
        counts.withLock { $0 = Counts() }
    }

    /// `{"requests": {...}, "batched": {...}, "total": n}`.
    var json: JSON {
        counts.withLock { counts in
            [
                "requests": .object(counts.requests.mapValues(JSON.int)),
                "batched": .object(counts.batched.mapValues(JSON.int)),
                "total": .int(counts.requests.values.reduce(0, +)),
            ]
        }
    }
}
