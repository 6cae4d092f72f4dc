import Foundation
import Hummingbird

/// `ferry-bench --serve-bare PORT`: Hummingbird with nothing of FerryServer, answering
/// `GET /v1/health` with FerryServer's body (and a stub login, for `Benchmarks/http-loop.py`),
/// on the same defaults as `ferry serve`: the floor the health loop is compared with.
enum BareServer {
    static func serve(port: Int) async throws -> Never {
        let router = Router()
        let health = ByteBuffer(string: #"{"status":"ok"}"#)
        router.get("/v1/health") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: health))
        }
        router.post("/v1/auth/login") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"access_token":"none"}"#))
            )
        }
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        print("serving http://127.0.0.1:\(port) (pid \(getpid()))")
        try await application.runService()
        throw BenchError("the bare server stopped")
    }
}
