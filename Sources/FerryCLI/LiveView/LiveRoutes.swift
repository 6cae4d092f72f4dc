import Foundation
import Hummingbird
import SyncKernel
import SyncKernelCLI

/// The live view's JSON API: the shapes of the CLI's `--json` (docs/json.md), built by the
/// same functions the commands call.
struct LiveRoutes {
    let feed: LiveFeed

    var runtime: FerryRuntime { feed.runtime }

    func add(to router: Router<BasicRequestContext>) {
        let api = router.group("api")
        api.get("status") { _, _ in try await json(QueueInspector(runtime: runtime).status()) }
        api.get("live") { _, _ in try await json(feed.snapshot()) }
        api.get("queue") { request, _ in
            let query = request.uri.queryParameters
            let state = try query.get("state").map { text in
                guard let state = OperationState(rawValue: text) else {
                    throw FerryError(.usage, "state \(text) is not one of \(Self.states)")
                }
                return state
            }
            let limit = try query.get("limit").map { text in
                guard let limit = Int(text), (1...10_000).contains(limit) else {
                    throw FerryError(.usage, "limit \(text) is not a number from 1 to 10000")
                }
                return limit
            }
            let rows = try await QueueCommand.List.operations(
                in: runtime,
                plugin: query.get("plugin"),
                state: state,
                limit: limit ?? 100
            )
            return try json(["operations": rows])
        }
        api.get("queue/:id") { _, context in
            let inspector = QueueInspector(runtime: runtime)
            let operation = try await inspector.find(try context.parameters.require("id"))
            return try json(OperationView(operation, why: try await inspector.explain(operation).rendered))
        }
        api.get("conflicts") { request, _ in
            let all = request.uri.queryParameters.get("all") == "true"
            return try json(["conflicts": try await ConflictsCommand.List.conflicts(in: runtime, all: all)])
        }
        api.post("queue/:id/retry") { _, context in
            try json(try await QueueCommand.Retry.retry(try context.parameters.require("id"), in: runtime))
        }
        api.post("queue/:id/discard") { _, context in
            let operation = try await QueueInspector(runtime: runtime).find(try context.parameters.require("id"))
            return try json(try await QueueCommand.Discard.discard(operation, in: runtime))
        }
        api.post("conflicts/:id/resolve") { request, context in
            let id = try context.parameters.require("id")
            let body = try await request.body.collect(upTo: 4096)
            struct Choice: Decodable { let keep: String }
            guard let choice = try? JSONDecoder().decode(Choice.self, from: Data(body.readableBytesView)),
                let side = ConflictsCommand.Resolve.Side(rawValue: choice.keep)
            else {
                throw FerryError(.usage, #"give the side to keep as {"keep": "local"} or {"keep": "remote"}"#)
            }
            return try json(try await ConflictsCommand.Resolve.resolve(id, keep: side, in: runtime))
        }
    }

    static let states = OperationState.allCases.map(\.rawValue).joined(separator: ", ")

    /// `value` as the CLI prints it with `--json`, byte for byte: the final newline included.
    private func json(_ value: some Encodable) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(
            status: .ok,
            headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONOutput.encode(value) + Data("\n".utf8)))
        )
    }
}
