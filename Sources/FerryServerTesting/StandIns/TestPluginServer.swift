import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// The remote of `SyncKernelTesting`'s `TestPlugin`: a small real HTTP server on loopback
/// that speaks its `/items` contract (`/items`, `/saved`, `/ping`, `/v1/health`), with
/// idempotency replay, versions with `If-Match`, scripted failures and a log of requests.
///
/// It stays beside the reference server because it serves what that one does not: the
/// test plugin's own contract, and failures of any status, body and headers scripted per
/// path (the reference server injects only its own fault kinds).
///
/// ```swift
/// try await TestPluginServer.with { server, url in
///     server.fail(.init(status: 503, headers: ["Retry-After": "2"]))
///     let test = try await TestRuntime.make(server: url, yaml: yaml, plugins: [TestPlugin.self])
///     // ...
///     #expect(server.count("PUT /items/a") == 2)
/// }
/// ```
public final class TestPluginServer: Sendable {
    /// An item as the server holds and sends it.
    public struct Item: Codable, Equatable, Sendable {
        public var key: String
        public var value: String?
        public var version: Int
        public var deleted: Bool?
        public var updatedAt: String?

        enum CodingKeys: String, CodingKey {
            case key, value, version, deleted
            case updatedAt = "updated_at"
        }
    }

    /// A failure to answer instead of handling a request.
    public struct Scripted: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: String
        /// Only requests to this path get this answer; nil for any path.
        public var path: String?

        public init(
            status: Int,
            headers: [String: String] = [:],
            body: String = #"{"error":{"code":"scripted","message":"scripted failure","details":{}}}"#,
            path: String? = nil
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.path = path
        }
    }

    private struct State {
        var items: [String: Item] = [:]
        var changes: [String] = []
        var saved: Set<String> = []
        var replies: [String: (body: Data, status: Int, response: Data)] = [:]
        var script: [Scripted] = []
        var log: [String] = []
        var nextKey = 1
        var updatedAt: String?
        var pings: [String] = []
    }

    private let state = Mutex(State())

    /// Every request handled, in order, as `METHOD /path` (`PUT /items/a`).
    public var requests: [String] { state.withLock { $0.log } }
    /// The keys saved with `PUT /saved/{key}` and not unsaved since.
    public var saved: Set<String> { state.withLock { $0.saved } }
    /// The bodies of `POST /ping`, in order.
    public var pings: [String] { state.withLock { $0.pings } }
    /// The item `key` as the server holds it.
    public func item(_ key: String) -> Item? { state.withLock { $0.items[key] } }
    /// How many requests were `line` (`PUT /items/a`).
    public func count(_ line: String) -> Int { requests.filter { $0 == line }.count }

    /// The next requests (to any path but GET) fail with these answers, in order.
    public func fail(_ answers: Scripted...) { state.withLock { $0.script += answers } }
    /// Sets an item directly, as another client would have written it.
    public func seed(_ key: String, _ value: String, version: Int, updatedAt: String? = nil) {
        state.withLock {
            $0.items[key] = Item(key: key, value: value, version: version, updatedAt: updatedAt)
            $0.changes.append(key)
        }
    }

    /// Runs the server on a free loopback port for the duration of `body`.
    public static func with<T: Sendable>(
        _ body: @Sendable (TestPluginServer, String) async throws -> T
    ) async throws -> T {
        let server = TestPluginServer()
        return try await LoopbackServer.serve(server.router()) { url in try await body(server, url) }
    }

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/items") { request, _ in self.changes(since: request.uri.queryParameters.get("since")) }
        router.put("/items/:key") { request, context in try await self.write(request, context, merge: false) }
        router.patch("/items/:key") { request, context in try await self.write(request, context, merge: true) }
        router.delete("/items/:key") { request, context in try await self.remove(request, context) }
        router.post("/items") { request, context in try await self.create(request, context) }
        router.put("/saved/:key") { request, context in try await self.save(request, context, saved: true) }
        router.delete("/saved/:key") { request, context in try await self.save(request, context, saved: false) }
        router.get("/v1/health") { _, _ -> Response in
            self.state.withLock { $0.log.append("GET /v1/health") }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        router.post("/ping") { request, context in
            try await self.respond(request, context) { body in
                self.state.withLock { $0.pings.append(String(decoding: body, as: UTF8.self)) }
                return (200, Data("{}".utf8))
            }
        }
        return router
    }

    private func respond(
        _ request: Request,
        _ context: BasicRequestContext,
        _ effect: @Sendable (Data) -> (Int, Data)
    ) async throws -> Response {
        var request = request
        let body = Data((try await request.collectBody(upTo: 1 << 20)).readableBytesView)
        let key = request.headers[.init("Idempotency-Key")!]
        let line = "\(request.method) \(request.uri.path)"
        let outcome: (Int, Data, [String: String]) = state.withLock { state in
            state.log.append(line)
            if let key, let reply = state.replies[key] {
                guard reply.body == body else {
                    return (
                        422, Data(#"{"error":{"code":"idempotency_key_reused","message":"reused","details":{}}}"#.utf8),
                        [:]
                    )
                }
                return (reply.status, reply.response, ["Idempotent-Replayed": "true"])
            }
            if let index = state.script.firstIndex(where: { $0.path == nil || $0.path == request.uri.path }) {
                let failure = state.script.remove(at: index)
                return (failure.status, Data(failure.body.utf8), failure.headers)
            }
            return (0, Data(), [:])
        }
        var (status, response, headers) = outcome
        if status == 0 {
            (status, response) = effect(body)
            if let key, status < 500 { state.withLock { $0.replies[key] = (body, status, response) } }
        }
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        return Response(
            status: .init(code: status),
            headers: fields,
            body: .init(byteBuffer: ByteBuffer(bytes: response))
        )
    }

    private func write(_ request: Request, _ context: BasicRequestContext, merge: Bool) async throws -> Response {
        let key = context.parameters.get("key") ?? ""
        let ifMatch = request.headers[.ifMatch].map {
            Int($0.trimmingCharacters(in: CharacterSet(charactersIn: "\""))) ?? -1
        }
        return try await respond(request, context) { body in
            let value = (try? JSONDecoder().decode([String: String?].self, from: body))?["value"] ?? nil
            return self.state.withLock { state in
                let current = state.items[key]
                if let ifMatch, ifMatch != (current?.version ?? 0) {
                    let details =
                        current.flatMap { try? JSONEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
                        ?? "null"
                    return (
                        412,
                        Data(
                            #"{"error":{"code":"version_mismatch","message":"stale version","details":{"current":\#(details)}}}"#
                                .utf8
                        )
                    )
                }
                var item = current ?? Item(key: key, value: nil, version: 0)
                item.value = merge ? (value ?? item.value) : value
                item.version += 1
                item.deleted = nil
                item.updatedAt = state.updatedAt
                state.items[key] = item
                state.changes.append(key)
                return (200, (try? JSONEncoder().encode(item)) ?? Data())
            }
        }
    }

    private func remove(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let key = context.parameters.get("key") ?? ""
        return try await respond(request, context) { _ in
            self.state.withLock { state in
                state.items[key]?.deleted = true
                state.items[key]?.version += 1
                state.changes.append(key)
                return (204, Data())
            }
        }
    }

    private func create(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        try await respond(request, context) { body in
            let value = (try? JSONDecoder().decode([String: String?].self, from: body))?["value"] ?? nil
            return self.state.withLock { state in
                let key = "r\(state.nextKey)"
                state.nextKey += 1
                state.items[key] = Item(key: key, value: value, version: 1)
                state.changes.append(key)
                return (201, Data(#"{"key":"\#(key)"}"#.utf8))
            }
        }
    }

    private func save(_ request: Request, _ context: BasicRequestContext, saved: Bool) async throws -> Response {
        let key = context.parameters.get("key") ?? ""
        return try await respond(request, context) { _ in
            self.state.withLock { state in
                if saved { state.saved.insert(key) } else { state.saved.remove(key) }
                return (204, Data())
            }
        }
    }

    /// Forgets every item, as a server restored from an old backup does.
    public func forgetEverything() {
        state.withLock { state in
            state.items = [:]
            state.changes = []
        }
    }

    private func changes(since: String?) -> Response {
        let invalid = state.withLock { state in since.flatMap(Int.init).map { $0 > state.changes.count } ?? false }
        if invalid {
            let body = #"{"error":{"code":"invalid_cursor","message":"this server did not issue that cursor","details":{}}}"#
            return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        let body: Data = state.withLock { state in
            state.log.append("GET /items")
            let start = since.flatMap(Int.init) ?? 0
            let keys = start < state.changes.count ? Array(Set(state.changes[start...])).sorted() : []
            // The protocol's page shape (docs/protocol.md): one change per item, whole.
            struct Change: Encodable {
                let type: String
                let id: String
                let entity: Item?
            }
            struct Page: Encodable {
                let changes: [Change]
                let cursor: String
                let has_more: Bool
            }
            let changes = keys.compactMap { key in
                state.items[key].map { Change(type: "upsert", id: key, entity: $0) }
            }
            let page = Page(changes: changes, cursor: String(state.changes.count), has_more: false)
            return (try? JSONEncoder().encode(page)) ?? Data()
        }
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        return Response(status: .ok, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
