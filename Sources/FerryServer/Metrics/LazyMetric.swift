import Synchronization

/// A metric made in the registry on its first use and kept: it appears in `GET /metrics`
/// only once something was counted, and later uses skip the registry's lookup by name and
/// labels.
final class LazyMetric<Metric: Sendable>: Sendable {
    private let make: @Sendable () -> Metric
    private let made = Mutex<Metric?>(nil)

    init(_ make: @escaping @Sendable () -> Metric) {
        self.make = make
    }

    /// The metric, made now if this is its first use.
    var metric: Metric {
        made.withLock { made in
            if let metric = made { return metric }
            let metric = make()
            made = metric
            return metric
        }
    }
}
