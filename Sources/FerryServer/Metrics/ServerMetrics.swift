import HTTPTypes
import Prometheus
import Synchronization

/// What one server counts for `GET /metrics`, in a registry of its own (several servers in
/// one process keep theirs apart; the global `MetricsSystem` is left alone).
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry

    // The registry finds a metric by name and labels under its lock on every call: the
    // handles are looked up once and kept (the registry hands out the same ones anyway).
    private let batchSizes: LazyMetric<ValueHistogram>
    private let replayCount: LazyMetric<Counter>
    private let databaseTimes: LazyMetric<DurationHistogram>
    private let requestHandles = Mutex<[RequestLabels: RequestHandles]>([:])

    init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        batchSizes = LazyMetric {
            registry.makeValueHistogram(descriptor: Self.batchSize, labels: [], buckets: Self.batchSizeBuckets)
        }
        replayCount = LazyMetric { registry.makeCounter(descriptor: Self.replays, labels: []) }
        databaseTimes = LazyMetric {
            registry.makeDurationHistogram(descriptor: Self.databaseTime, labels: [], buckets: Self.databaseBuckets)
        }
    }

    static let latencyBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
    ]
    static let databaseBuckets: [Duration] = [
        .microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250),
        .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .seconds(1),
    ]
    static let batchSizeBuckets: [Double] = [1, 2, 5, 10, 25, 50, 100, 250, 500]

    /// One request that came over HTTP: its route template (not its path), method and status.
    func request(route: String, method: HTTPRequest.Method, status: Int, duration: Duration) {
        let handles = requestHandles.withLock { cached in
            let key = RequestLabels(route: route, method: method, status: status)
            if let found = cached[key] { return found }
            let made = makeRequestHandles(key)
            cached[key] = made
            return made
        }
        handles.count.increment()
        handles.latency.record(duration)
    }

    /// One `POST /v1/batch` with `size` sub-requests.
    func batch(size: Int) {
        batchSizes.metric.record(Double(size))
    }

    /// A request answered from its `Idempotency-Key`'s record.
    func idempotentReplay() {
        replayCount.metric.increment()
    }

    /// Time spent in one database access (or one statement group of a batch).
    func database(_ duration: Duration) {
        databaseTimes.metric.record(duration)
    }

    /// The labels of one request's counter and latency.
    private struct RequestLabels: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: Int
    }

    /// The counter and latency histogram of one set of ``RequestLabels``.
    private struct RequestHandles: Sendable {
        let count: Counter
        let latency: DurationHistogram
    }

    private func makeRequestHandles(_ key: RequestLabels) -> RequestHandles {
        let method = key.method.rawValue
        return RequestHandles(
            count: registry.makeCounter(
                descriptor: Self.requests,
                labels: [("route", key.route), ("method", method), ("status", String(key.status))]
            ),
            latency: registry.makeDurationHistogram(
                descriptor: Self.latency,
                labels: [("route", key.route), ("method", method)],
                buckets: Self.latencyBuckets
            )
        )
    }

    /// The metrics in Prometheus's text format.
    func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }

    // Immutable values of a type that is not marked Sendable.
    nonisolated(unsafe) private static let requests = MetricNameDescriptor(
        namespace: "ferry",
        metricName: "http_requests",
        unitName: "total",
        helpText: "Requests by route template, method and status."
    )
    nonisolated(unsafe) private static let latency = MetricNameDescriptor(
        namespace: "ferry",
        metricName: "http_request_duration",
        unitName: "seconds",
        helpText: "Time from a request's arrival to its response, by route template and method."
    )
    nonisolated(unsafe) private static let batchSize = MetricNameDescriptor(
        namespace: "ferry",
        metricName: "batch_size",
        unitName: "requests",
        helpText: "Sub-requests per POST /v1/batch."
    )
    nonisolated(unsafe) private static let replays = MetricNameDescriptor(
        namespace: "ferry",
        metricName: "idempotent_replays",
        unitName: "total",
        helpText: "Requests answered from the record of their Idempotency-Key."
    )
    nonisolated(unsafe) private static let databaseTime = MetricNameDescriptor(
        namespace: "ferry",
        metricName: "database_access_duration",
        unitName: "seconds",
        helpText: "Time spent in each database access."
    )
}
