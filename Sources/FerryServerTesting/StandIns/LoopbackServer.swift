import Hummingbird
import Logging

/// Runs a Hummingbird router on a free loopback port for the duration of `body`: the
/// footing of the stand-ins here, for peers the reference server does not play.
public enum LoopbackServer {
    /// Serves `router` on `127.0.0.1` and a free port, calls `body` with the base URL
    /// (`http://127.0.0.1:PORT`), then stops serving.
    public static func serve<T: Sendable>(
        _ router: Router<BasicRequestContext>,
        _ body: @Sendable (String) async throws -> T
    ) async throws -> T {
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portSink.yield(channel.localAddress?.port ?? 0) },
            logger: Logger(label: "loopback", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await app.run()
                return nil
            }
            var iterator = ports.makeAsyncIterator()
            let port = await iterator.next() ?? 0
            let result = try await body("http://127.0.0.1:\(port)")
            group.cancelAll()
            return result
        }
    }
}
