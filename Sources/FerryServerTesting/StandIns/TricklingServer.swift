import Hummingbird

/// A peer that answers at once and then stalls: `GET /slow` sends its head (`200`,
/// `Content-Length: 40`) straight away, then its body one byte every 100 ms, 4 s in all.
///
/// The reference server's injected latency (`FaultSettings.latencyMilliseconds`) delays a
/// whole answer, head included; this one proves that a client's timeout bounds the whole
/// answer, not only its head.
///
/// ```swift
/// try await TricklingServer.with { url in
///     // GET url + "/slow" with a 0.5 s timeout fails with a timeout
/// }
/// ```
public enum TricklingServer {
    /// Serves `GET /slow` on a free loopback port for the duration of `body`, which gets
    /// the base URL.
    public static func with<T: Sendable>(_ body: @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        router.get("/slow") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentLength: "40"],
                body: ResponseBody { writer in
                    for _ in 0..<40 {
                        try await writer.write(ByteBuffer(string: "x"))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    try await writer.finish(nil)
                }
            )
        }
        return try await LoopbackServer.serve(router, body)
    }
}
