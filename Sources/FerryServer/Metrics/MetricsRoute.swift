import Foundation

/// `GET /metrics`: the server's metrics in Prometheus's text format. The same callers as
/// `/admin` may read it (``AdminGate``); faults never apply to it.
enum MetricsRoute {
    static let route = Route(.get, "/metrics", access: .loopback, batchable: false) { _, env in
        APIResponse(
            status: .ok,
            headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"],
            body: Data(env.metrics.exposition())
        )
    }
}
