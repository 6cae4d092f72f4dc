import AsyncHTTPClient
import FerryServer
import FerryServerTesting
import Foundation
import NIOCore
import NIOHTTP1

/// The reference server from `FerryServerTesting` on a clock the test moves, on the
/// storage of this run, and a small HTTP client for it.
struct TestServer {
    let server: RunningFerryServer
    let clock: ServerClock

    /// Starts a server (``DemoFerryServer``) on its own ``ServerClock``, on `storage`
    /// (SQLite, or PostgreSQL when the test run has a database: ``TestStorage``).
    static func start(
        seedDemo: Bool = true,
        faults: FaultSettings = .init(),
        storage: TestStorage = .default,
        clock: ServerClock = ServerClock(),
        configure: (inout FerryServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let server = try await DemoFerryServer.start(clock: clock) { configuration in
            configuration.seedDemo = seedDemo
            configuration.faults = faults
            configure(&configuration)
            if case .postgres(let server) = storage, configuration.postgres == nil {
                configuration.postgres = server.inSchema(TestStorage.schema(for: configuration.dataDirectory))
            }
        }
        return TestServer(server: server, clock: clock)
    }

    /// Sends a request; `json` is serialized with JSONSerialization, `body` is sent as is.
    func request(
        _ method: HTTPMethod,
        _ path: String,
        json: Any? = nil,
        body: Data? = nil,
        token: String? = nil,
        headers: [String: String] = [:],
        timeout: TimeAmount = .seconds(10)
    ) async throws -> TestResponse {
        var request = HTTPClientRequest(url: server.baseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            let data = try JSONSerialization.data(withJSONObject: json, options: [.fragmentsAllowed])
            request.body = .bytes(ByteBuffer(bytes: data))
            if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
                request.headers.add(name: "Content-Type", value: "application/json")
            }
        } else if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let buffer = try await response.body.collect(upTo: 64 << 20)
        var responseHeaders: [String: String] = [:]
        for header in response.headers { responseHeaders[header.name.lowercased()] = header.value }
        return TestResponse(
            status: Int(response.status.code),
            headers: responseHeaders,
            body: Data(buffer.readableBytesView)
        )
    }

    /// Logs in and returns the access token.
    func login(_ username: String = "demo", _ password: String = "demo-password") async throws -> String {
        try await server.login(username, password: password)
    }

    /// Creates a user through the loopback admin endpoint and returns its access token.
    func createUser(_ username: String, password: String = "password-1") async throws -> String {
        let created = try await request(.POST, "/admin/users", json: ["username": username, "password": password])
        guard created.status == 201 else { throw TestFailure("creating \(username) failed: \(created.status)") }
        return try await login(username, password)
    }

    func stop() async {
        await server.stop()
    }
}

/// A failure in the test support itself.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
