import Foundation
import SyncKernel
import SyncKernelTesting
import Testing

/// `ferry serve` killed with SIGKILL again and again while batches of writes arrive: each
/// write, resent with its `Idempotency-Key` until it is answered, is applied exactly once.
@Suite(
    "ferry serve: killed mid-batch",
    .enabled(if: FerryExecutable.isBuilt, "needs the ferry executable (swift build)")
)
struct ServerCrashTests {
    /// A `ferry serve` process on `port` with its database in `folder`, started again
    /// after each kill; its output is dropped.
    final class Server: @unchecked Sendable {
        let ferry: FerryExecutable
        let folder: URL
        let port: Int
        private var running: FerryExecutable.Running?

        init(folder: URL, port: Int) throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            self.ferry = try FerryExecutable(in: folder)
            self.folder = folder
            self.port = port
        }

        var baseURL: String { "http://127.0.0.1:\(port)" }

        func start() throws {
            running = try ferry.serve(["--port", "\(port)", "--data", folder.path, "--seed-demo"])
        }

        /// Kills it with SIGKILL and waits until it has died.
        func kill() async {
            await running?.kill()
        }
    }

    static let batches = 30
    static let perBatch = 20

    @Test(.timeLimit(.minutes(2)))
    func everyWriteOfABatchIsAppliedOnceHoweverOftenTheServerDies() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try Server(
            folder: folder,
            // Below Linux's ephemeral range (32768-60999), where the suite's own client
            // connections could already hold the port chosen.
            port: Int.random(in: 20_000...32_000)
        )
        try server.start()
        let done = Flag()
        var killing: Task<Int, Never>?
        do {
            let token = try await Self.untilAnswered { try await Self.login(server.baseURL) }
            let before = try await Self.version(server.baseURL, token: token)

            // A killer: SIGKILL at a random moment, then start again, until the writes are done.
            let killer = Task.detached {
                var kills = 0
                while !done.isSet {
                    // Up and answering for a moment, then killed.
                    _ = try? await Self.untilAnswered {
                        try await Self.transport(server.baseURL).send(HTTPRequest("GET", "/v1/health"))
                    }
                    try? await Task.sleep(for: .milliseconds(Int.random(in: 20...200)))
                    guard !done.isSet else { break }
                    await server.kill()
                    kills += 1
                    try? server.start()
                }
                return kills
            }
            killing = killer
            for batch in 0..<Self.batches {
                let requests = try JSONSerialization.data(
                    withJSONObject: [
                        "requests": (0..<Self.perBatch).map { index -> [String: Any] in
                            let key = "crash-\(batch)-\(index)"
                            return [
                                "method": "PATCH", "path": "/v1/movies/m_demo_heat",
                                "headers": ["Idempotency-Key": key], "body": ["recommender": key],
                            ]
                        }
                    ]
                )
                // Resent whole, with the same keys, until every sub-request has a real answer.
                try await Self.untilAnswered {
                    let answers = try await Self.batch(server.baseURL, token: token, requests: requests)
                    guard answers.allSatisfy({ (200..<300).contains($0) }) else { throw Retry() }
                }
            }
            done.set()
            let kills = await killer.value
            killing = nil
            let after = try await Self.untilAnswered { try await Self.version(server.baseURL, token: token) }
            await server.kill()
            #expect(kills > 3, "the server was killed only \(kills) times")
            #expect(
                after - before == Self.batches * Self.perBatch,
                "\(after - before) writes applied for \(Self.batches * Self.perBatch) sent"
            )
        } catch {
            // Stop the killer before the server, or it starts the server again.
            done.set()
            _ = await killing?.value
            await server.kill()
            throw error
        }
    }

    struct Retry: Error {}

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    /// Runs `body` until it neither throws nor meets a dead server.
    @discardableResult
    static func untilAnswered<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(90)
        while true {
            do {
                return try await body()
            } catch {
                guard ContinuousClock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    static let executor = AsyncHTTPExecutor()

    static func transport(_ baseURL: String, token: String? = nil) -> HTTPTransport {
        HTTPTransport(
            baseURL: baseURL,
            credentials: token.map { StaticCredentials(token: $0) },
            timeout: 5,
            executor: executor
        )
    }

    static func login(_ baseURL: String) async throws -> String {
        let answer = try await transport(baseURL).send(
            try .json("POST", "/v1/auth/login", body: ["username": "demo", "password": "demo-password"])
        )
        let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        guard let token = object?["access_token"] as? String else { throw Retry() }
        return token
    }

    static func version(_ baseURL: String, token: String) async throws -> Int {
        let answer = try await transport(baseURL, token: token).send(HTTPRequest("GET", "/v1/movies/m_demo_heat"))
        let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        guard let version = object?["version"] as? Int else { throw Retry() }
        return version
    }

    /// The sub-requests' statuses.
    static func batch(_ baseURL: String, token: String, requests body: Data) async throws -> [Int] {
        let answer = try await transport(baseURL, token: token).send(
            HTTPRequest("POST", "/v1/batch", headers: [("Content-Type", "application/json")], body: body)
        )
        let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        return (object?["responses"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? Int }
    }
}
