import AsyncHTTPClient
import FerryServer
import FerryServerTesting
import Foundation
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import SyncKernel
import SyncKernelTesting

@testable import FerryCLI

/// A runner's live view in this process, on a free loopback port, over a signed-in device
/// with the documents domain `bookmarks` against the reference server. The test drives
/// the runner's passes itself (`device.runOnce()`), so nothing depends on timing.
struct LiveViewHarness {
    let server: RunningFerryServer
    let device: TestRuntime
    let view: LiveView
    let group: ServiceGroup
    let running: Task<Void, any Error>
    let base: String

    static func start(
        token: String? = nil,
        yaml: String = "retry: {max_attempts: 1}\ndomains:\n  bookmarks: {}\n"
    )
        async throws -> LiveViewHarness
    {
        let server = try await DemoFerryServer.start()
        let device = try await TestRuntime.make(
            server: server.baseURL,
            yaml: yaml,
            plugins: [],
            credentials: try await StaticCredentials.signedIn(at: server.baseURL)
        )
        let view = LiveView(runtime: device.runtime, address: ListenAddress(host: "127.0.0.1", port: 0), token: token)
        let group = ServiceGroup(configuration: .init(services: view.services, logger: device.runtime.logger))
        let running = Task { try await group.run() }
        guard let bound = await view.bound() else { throw Timeout(what: "the live view to listen") }
        return LiveViewHarness(
            server: server,
            device: device,
            view: view,
            group: group,
            running: running,
            base: "http://127.0.0.1:\(bound.port)"
        )
    }

    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
        await device.runtime.shutdown()
        await server.stop()
    }

    /// Queues a put of `entity` in `bookmarks`.
    func put(_ entity: String) async throws {
        _ = try await device.runtime.submitDeclared(
            domain: "bookmarks",
            kind: "put",
            entity: entity,
            body: Data(#"{"url": "https://example.com/\#(entity)"}"#.utf8)
        )
    }

    /// One request; the answer's status and body.
    func request(
        _ method: HTTPMethod,
        _ path: String,
        headers: [(String, String)] = [],
        body: String? = nil
    ) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), String(buffer: bytes))
    }

    /// A POST as the page sends it.
    func post(_ path: String, body: String = "{}") async throws -> (status: Int, body: String) {
        try await request(.POST, path, headers: [("Content-Type", "application/json")], body: body)
    }

    /// The object a JSON answer holds.
    static func object(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw Timeout(what: "a JSON object in \(text)")
        }
        return object
    }
}

/// The messages of one `/events` connection, read as they arrive.
final class EventStreamReader: Sendable {
    let frames: AsyncStream<(name: String, data: String)>
    private let task: Task<Void, Never>

    init(url: String) async throws {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        let (frames, continuation) = AsyncStream.makeStream(of: (name: String, data: String).self)
        self.frames = frames
        task = Task {
            var buffer = ""
            do {
                for try await chunk in response.body {
                    buffer += String(buffer: chunk)
                    while let end = buffer.range(of: "\n\n") {
                        let frame = buffer[..<end.lowerBound]
                        buffer = String(buffer[end.upperBound...])
                        var name = ""
                        var data = ""
                        for line in frame.split(separator: "\n") {
                            if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                            if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                        }
                        continuation.yield((name, data))
                    }
                }
            } catch {}
            continuation.finish()
        }
    }

    /// The first frame from now on that satisfies `matches`.
    func next(where matches: (String, [String: Any]) -> Bool) async throws -> [String: Any] {
        for await frame in frames {
            let object = try LiveViewHarness.object(frame.data)
            if matches(frame.name, object) { return object }
        }
        throw Timeout(what: "an event stream frame")
    }

    func close() { task.cancel() }
}
