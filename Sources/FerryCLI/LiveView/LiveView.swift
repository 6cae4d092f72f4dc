import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import SyncKernel
import SyncKernelCLI

/// The live view of a running `ferry run` (`status.listen` in `config.yaml`): a page at `/`
/// kept live by server-sent events at `/events`, the JSON API under `/api`, and `/metrics`
/// in Prometheus' text format. docs/json.md lists the endpoints.
///
/// Run `services` in the runner's service group, after the engine: the feed comes last, so
/// that it is shut down first and ends the open event streams before the server waits for them.
struct LiveView: Sendable {
    let feed: LiveFeed
    let server: LiveServer

    /// A live view of `runtime` on `address`, requiring `token` when it is set; `listening`
    /// gets the address once the socket accepts connections (with the bound port when
    /// `address` asked for port 0).
    init(
        runtime: FerryRuntime,
        address: ListenAddress,
        token: String?,
        listening: @escaping @Sendable (ListenAddress) async -> Void = { _ in }
    ) {
        let feed = LiveFeed(runtime: runtime)
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: LiveErrorMiddleware())
        router.add(middleware: LiveGuard(token: token))
        router.get("/") { _, _ in LivePage.response }
        router.get("events") { _, _ in try await LiveEventStream.response(feed) }
        router.get("metrics") { _, _ in
            feed.metrics.update(try await QueueInspector(runtime: runtime).status())
            feed.metrics.update(runtime.readCache.statistics)
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(
                status: .ok,
                headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: feed.metrics.text()))
            )
        }
        LiveRoutes(feed: feed).add(to: router)
        self.feed = feed
        server = LiveServer(router: router, address: address, listening: listening)
    }

    /// The services to run beside the engine, in this order.
    var services: [ServiceGroupConfiguration.ServiceConfiguration] {
        [.init(service: server), .init(service: feed)]
    }

    /// Where it listens, once it does; nil when it could not.
    func bound() async -> ListenAddress? {
        await server.bound()
    }

    /// Serves while `body` runs (`ferry run --once`): starts listening first, and stops
    /// once `body` is done.
    func whileServing<T: Sendable>(logger: Logger, _ body: @Sendable () async throws -> T) async throws -> T {
        let group = ServiceGroup(configuration: .init(services: services, logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            guard await bound() != nil else {
                try await tasks.waitForAll()
                throw FerryError(.configuration, "the live view stopped before it listened")
            }
            do {
                let result = try await body()
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
        }
    }
}

extension LiveViewSettings {
    /// The live view these settings ask for, telling on standard error where it listens
    /// (never the token); nil when `status.listen` is not set.
    func liveView(of runtime: FerryRuntime) -> LiveView? {
        guard let listen else { return nil }
        return LiveView(runtime: runtime, address: listen, token: token) { bound in
            Output.warn("ferry: live view at http://\(bound)/")
        }
    }
}
