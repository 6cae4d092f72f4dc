import Foundation
import Prometheus
import SyncKernel
import Synchronization

/// What a runner has done, as Prometheus metrics: one registry per runner (never the
/// process-wide `MetricsSystem`), so that several runners in one process stay apart.
///
/// Counters and the histogram come from the runtime's events; the operation gauges are set
/// from the queue's counters when `/metrics` is read.
final class RunnerMetrics: Sendable {
    /// The registry `/metrics` prints.
    let registry = PrometheusCollectorRegistry()
    /// The bytes last seen per transfer, to count only what arrived since.
    private let transferred = Mutex<[String: Int64]>([:])
    private let clock: any KernelClock

    /// The states an operation gauge is kept for, as `ferry queue list` names them.
    static let states: [OperationState] = [.pending, .queued, .inFlight, .dead, .conflict]
    /// Upper bounds of the delivery histogram, in seconds: from a prompt send to a day offline.
    static let deliveryBuckets: [Double] = [
        0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21_600, 86_400,
    ]

    init(clock: any KernelClock) {
        self.clock = clock
    }

    /// Creates every counter at zero for `plugins`, so that `/metrics` lists them before
    /// anything happened.
    func prepare(plugins: [String]) {
        for plugin in plugins {
            for count in Count.allCases { _ = counter(count, plugin) }
        }
        _ = registry.makeCounter(descriptor: Self.named("ferry_transfer_bytes_total", "Bytes of files downloaded."))
        _ = registry.makeCounter(descriptor: Self.named("ferry_transfers_total", "Files downloaded and verified."))
    }

    /// The counters kept per plugin.
    enum Count: String, CaseIterable {
        case sends = "ferry_sends_total"
        case retries = "ferry_retries_total"
        case deadLetters = "ferry_dead_letters_total"
        case conflicts = "ferry_conflicts_total"

        var help: String {
            switch self {
            case .sends: "Operations the remote accepted."
            case .retries: "Sends that failed and will be retried after a backoff."
            case .deadLetters: "Operations that became dead letters."
            case .conflicts: "Writes the remote answered with 409 or 412."
            }
        }
    }

    /// Counts `event`.
    func record(_ event: SyncEvent) {
        switch event {
        case .sent(let plugin, _, _, let operation):
            counter(.sends, plugin).increment()
            let seconds = clock.now().timeIntervalSince(operation.enqueuedAt)
            registry.makeValueHistogram(
                descriptor: Self.named("ferry_delivery_seconds", "Time from an operation's enqueue to its delivery."),
                labels: [("plugin", plugin)],
                buckets: Self.deliveryBuckets
            ).record(max(0, seconds))
        case .retrying(let plugin, _, _, _, _, _):
            counter(.retries, plugin).increment()
        case .dead(let plugin, _, _, _):
            counter(.deadLetters, plugin).increment()
        case .conflict(let report):
            counter(.conflicts, report.plugin).increment()
        case .transferProgress(let name, let received, _):
            let delta = transferred.withLock { seen in
                defer { seen[name] = received }
                let last = seen[name] ?? 0
                return received >= last ? received - last : received  // a new download of the same file
            }
            registry.makeCounter(descriptor: Self.named("ferry_transfer_bytes_total", "Bytes of files downloaded.")).increment(
                by: delta
            )
        case .transferred(let name, _):
            _ = transferred.withLock { $0.removeValue(forKey: name) }
            registry.makeCounter(descriptor: Self.named("ferry_transfers_total", "Files downloaded and verified.")).increment()
        default:
            break
        }
    }

    /// Sets the operation gauges and connectivity from `status`.
    func update(_ status: QueueInspector.Status) {
        for plugin in status.plugins {
            let counts: [OperationState: Int] = [
                .pending: plugin.pending, .queued: plugin.queued, .inFlight: plugin.inFlight, .dead: plugin.dead,
                .conflict: plugin.conflicts,
            ]
            for state in Self.states {
                registry.makeGauge(
                    descriptor: Self.named("ferry_operations", "Operations in the outbox, by plugin and state."),
                    labels: [("plugin", plugin.plugin), ("state", state.rawValue)]
                ).set(to: Double(counts[state] ?? 0))
            }
        }
        registry.makeGauge(descriptor: Self.named("ferry_connectivity_reachable", "1 when the remote is reachable."))
            .set(to: status.connectivity.reachable ? 1.0 : 0.0)
    }

    /// Sets the read cache's gauges from `statistics`: the runner's own reads, through the
    /// memory tier in front of SQLite.
    func update(_ statistics: ReadCache.Statistics) {
        for (result, count) in [("hit", statistics.hits), ("miss", statistics.misses)] {
            registry.makeGauge(
                descriptor: Self.named("ferry_read_cache_reads", "Cached reads since the runner started, answered from memory (hit) or from SQLite (miss)."),
                labels: [("result", result)]
            ).set(to: Double(count))
        }
        registry.makeGauge(descriptor: Self.named("ferry_read_cache_hit_ratio", "Hits over all cached reads, 0 to 1."))
            .set(to: statistics.hitRate)
        registry.makeGauge(descriptor: Self.named("ferry_read_cache_entries", "Results held in memory now."))
            .set(to: Double(statistics.entries))
        registry.makeGauge(descriptor: Self.named("ferry_read_cache_evictions", "Results dropped to stay within max_entries."))
            .set(to: Double(statistics.evictions))
    }

    /// A metric named in full (`ferry_sends_total`), with its help line.
    private static func named(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// The metrics in Prometheus' text format.
    func text() -> String { registry.emitToString() }

    private func counter(_ count: Count, _ plugin: String) -> Counter {
        registry.makeCounter(descriptor: Self.named(count.rawValue, count.help), labels: [("plugin", plugin)])
    }
}

extension UUID {
    /// When the operation with this id was queued: an operation's id is a version 7 UUID
    /// whose first 48 bits are the Unix time in milliseconds on the runtime's clock.
    var enqueuedAt: Date {
        let bytes = uuid
        let milliseconds = [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5].reduce(UInt64(0)) {
            $0 << 8 | UInt64($1)
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
