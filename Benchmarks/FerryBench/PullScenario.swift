import Foundation
import SyncKernel

/// Scenario: a device's first pull of a feed of `count` recipes from FerryServer on loopback.
///
/// The kernel's pull (`PluginContext.follow`): each page read and checked whole, each
/// entity handed to the plugin with its keys sorted, the plugin's upserts and the page's
/// cursor committed in one transaction. Beside it, the same pages fetched by a plain loop
/// with AsyncHTTPClient and parsed with `JSONSerialization`, nothing stored: the server's
/// and the round trip's share of the figure.
struct PullScenario {
    let harness: Harness
    let report: Report
    let smoke: Bool

    /// A page of the feed, as both pulls ask for it (the protocol's most).
    static let pageSize = 1000

    func run(count requested: Int) async throws {
        let count = smoke ? 40 : requested
        try await DrainScenario.withServer { plain in
            _ = try await plain.batched(count, size: 100, prefix: "pull")
            let onServer = try await plain.pages("/v1/recipes/changes", limit: Self.pageSize)
            guard onServer >= count else { throw BenchError("the server's feed holds \(onServer) recipes, not \(count)") }

            var plainRates: [Double] = []
            var kernelRates: [Double] = []
            for round in 0..<3 {
                plainRates.append(
                    Double(onServer)
                        / (try await measure { _ = try await plain.pages("/v1/recipes/changes", limit: Self.pageSize) }).seconds
                )
                let runtime = try await harness.runtime(
                    in: harness.folder("pull-\(round)"),
                    server: plain.base,
                    network: true,
                    pull: true,
                    token: plain.token
                )
                var summary = PullSummary()
                let elapsed = try await measure { summary = try await runtime.pull(BenchPlugin.name) }
                guard summary.upserted == onServer else {
                    throw BenchError("the kernel's pull stored \(summary.upserted) of the feed's \(onServer) recipes")
                }
                kernelRates.append(Double(onServer) / elapsed.seconds)
                await runtime.shutdown()
            }
            // The best of three: the first pull of a fresh store each time, on a warm server.
            let kernel = kernelRates.max()!
            let baseline = plainRates.max()!
            report.add(
                Figure(
                    scenario: "pull",
                    size: "\(onServer.formatted) entities",
                    metric: "first pull, a page of 1,000 at a time",
                    unit: "entities/s",
                    ferry: kernel,
                    baseline: baseline,
                    baselineName: "plain page loop, parsed, nothing stored"
                )
            )
        }
    }
}

extension PlainLoop {
    /// Follows the changes feed at `path` from its beginning to its end, parsing each page
    /// with `JSONSerialization`; returns how many changes it read.
    func pages(_ path: String, limit: Int) async throws -> Int {
        var cursor: String?
        var read = 0
        while true {
            let query = "?limit=\(limit)" + (cursor.map { "&since=\($0)" } ?? "")
            let body = try await send(.GET, path + query, body: nil, key: nil)
            guard let page = try JSONSerialization.jsonObject(with: body) as? [String: Any],
                let changes = page["changes"] as? [[String: Any]], let next = page["cursor"] as? String
            else { throw BenchError("\(path) answered something that is not a page of changes") }
            read += changes.count
            if page["has_more"] as? Bool != true || next == cursor { return read }
            cursor = next
        }
    }
}
