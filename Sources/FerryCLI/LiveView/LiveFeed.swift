import Foundation
import ServiceLifecycle
import SyncKernel
import SyncKernelCLI
import Synchronization

/// What the live view knows of a running runner, kept current: the runtime's events (the
/// latest of them, transfers in progress, the metrics) and a snapshot of the queue, taken
/// again whenever the store or the runtime changed. Every `/events` connection listens here.
///
/// A service: it runs beside the engine, and ends every listener's stream when the runner
/// shuts down (before the HTTP server waits for its open responses).
final class LiveFeed: Service, Sendable {
    /// One message to every listener.
    enum Message: Sendable {
        /// A kernel event, as a line of `ferry run --json`, encoded.
        case event(Data)
        /// A new `LiveSnapshot`, encoded.
        case snapshot(Data)
    }

    /// How many events the page keeps.
    static let recentLimit = 50
    /// How many transfers the page keeps.
    static let transferLimit = 20

    let runtime: FerryRuntime
    let metrics: RunnerMetrics
    private let events: AsyncStream<SyncEvent>
    private let refreshes: AsyncStream<Void>
    private let refresh: AsyncStream<Void>.Continuation
    private let state = Mutex(State())

    private struct State {
        var recent: [EventView] = []
        var transfers: [String: TransferView] = [:]
        var listeners: [UUID: AsyncStream<Message>.Continuation] = [:]
        var finished = false
    }

    /// A feed of `runtime`; it subscribes to the events at once, so that none is missed.
    init(runtime: FerryRuntime) {
        self.runtime = runtime
        metrics = RunnerMetrics(clock: runtime.clock)
        metrics.prepare(plugins: runtime.registry.names)
        events = runtime.events.subscribe()
        (refreshes, refresh) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.followStore() }
                group.addTask { await self.publishSnapshots() }
                for await event in events.cancelOnGracefulShutdown() { record(event) }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.finish()
        }
        finish()
    }

    /// A stream of every message from now on; it ends when the runner stops.
    func listen() -> AsyncStream<Message> {
        let (stream, continuation) = AsyncStream.makeStream(of: Message.self, bufferingPolicy: .bufferingNewest(256))
        let id = UUID()
        let added = state.withLock { state in
            guard !state.finished else { return false }
            state.listeners[id] = continuation
            return true
        }
        guard added else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// The page's state now.
    func snapshot() async throws -> LiveSnapshot {
        let status = try await QueueInspector(runtime: runtime).status()
        metrics.update(status)
        let (recent, transfers) = state.withLock { state in
            (state.recent, state.transfers.values.sorted { $0.updatedAt > $1.updatedAt })
        }
        return LiveSnapshot(
            status: status,
            operations: try await QueueCommand.List.operations(in: runtime),
            conflicts: try await ConflictsCommand.List.conflicts(in: runtime),
            transfers: transfers,
            events: recent
        )
    }

    private func record(_ event: SyncEvent) {
        metrics.record(event)
        let view = EventView(event, time: runtime.clock.now()) { report in
            self.runtime.registry.plugin(named: report.plugin)?.describe(report)
        }
        state.withLock { state in
            state.recent.append(view)
            if state.recent.count > Self.recentLimit { state.recent.removeFirst(state.recent.count - Self.recentLimit) }
            if case .transferProgress(let name, let received, let total) = event {
                state.transfers[name] = TransferView(name: name, received: received, total: total, updatedAt: view.time)
                if state.transfers.count > Self.transferLimit,
                    let oldest = state.transfers.values.min(by: { $0.updatedAt < $1.updatedAt })
                {
                    state.transfers[oldest.name] = nil
                }
            }
        }
        if let line = try? JSONOutput.encode(view, oneLine: true) { broadcast(.event(line)) }
        refresh.yield()
    }

    /// Asks for a snapshot whenever the store changed: at once after this process's writes,
    /// within `sync.poll_interval` after another process's.
    private func followStore() async {
        let interval = runtime.configuration.kernel.sync.pollInterval.value
        for await _ in runtime.store.changes(polling: interval, clock: runtime.clock) { refresh.yield() }
    }

    /// Takes a snapshot for each request and sends it when it differs from the last one
    /// sent; requests that pile up while one is taken become one.
    private func publishSnapshots() async {
        var last: Data?
        for await _ in refreshes {
            guard hasListeners, let snapshot = try? await snapshot(),
                let data = try? JSONOutput.encode(snapshot, oneLine: true), data != last
            else { continue }
            last = data
            broadcast(.snapshot(data))
        }
    }

    private var hasListeners: Bool { state.withLock { !$0.listeners.isEmpty } }

    private func broadcast(_ message: Message) {
        let targets = state.withLock { Array($0.listeners.values) }
        for continuation in targets { continuation.yield(message) }
    }

    private func finish() {
        let targets = state.withLock { state in
            state.finished = true
            defer { state.listeners.removeAll() }
            return Array(state.listeners.values)
        }
        for continuation in targets { continuation.finish() }
        refresh.finish()
    }
}
