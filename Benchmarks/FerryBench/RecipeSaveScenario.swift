import Foundation
import RecipesPlugin
import SyncKernel
import SyncKernelTesting

/// The recipes plugin's save and unsave, through its public API, as the user feels them:
/// the local write is the answer (the remote is not reachable; nothing waits for it).
/// Baseline: the same-shaped local write (a row and its operation) through the C API.
struct RecipeSaveScenario {
    let harness: Harness
    let report: Report
    let smoke: Bool

    func run() async throws {
        let toggles = smoke ? 100 : 2_000
        let folder = harness.folder("recipes")
        let runtime = try await recipesRuntime(in: folder)
        let book = try RecipeBook(runtime: runtime)
        var ids: [String] = []
        for index in 0..<20 {
            let file = folder.appendingPathComponent("recipe-\(index).json")
            try Data(#"{"id": "bench-\#(index)", "title": "Bench \#(index)"}"#.utf8).write(to: file)
            ids.append(try await book.add(documentAt: file.path).id)
        }
        var samples = Samples(capacity: toggles)
        for index in 0..<toggles {
            let id = ids[index % ids.count]
            samples.add(try await measure { _ = try await book.toggle(id) })
        }

        let schema = harness.folder("recipes-raw")
        try await harness.createSchema(in: schema)
        let raw = try RawSQLite(path: harness.databasePath(schema), synchronous: "NORMAL")
        var baseline = Samples(capacity: toggles)
        for index in 0..<toggles {
            baseline.add(
                try await measure {
                    try raw.transaction {
                        try RawOutbox.localWrite(
                            raw,
                            entity: "raw-\(index % 20)",
                            value: "\(index)",
                            now: Double(index)
                        )
                    }
                }
            )
        }
        let label = "\(toggles.formatted) toggles"
        for (metric, ferry, base, target) in [
            ("p50 latency", samples.p50, baseline.p50, nil), ("p99 latency", samples.p99, baseline.p99, 50_000.0),
        ] as [(String, Double, Double, Double?)] {
            report.add(
                Figure(
                    scenario: "recipes save/unsave",
                    size: label,
                    metric: metric,
                    unit: "µs",
                    ferry: ferry,
                    baseline: base,
                    baselineName: "raw C local write",
                    target: target.map { _ in "< 50 ms (the seed's)" },
                    met: target.map { ferry < $0 }
                )
            )
        }
    }

    /// A runtime with the recipes plugin over a store in `folder`, its remote unreachable.
    private func recipesRuntime(in folder: URL) async throws -> FerryRuntime {
        let yaml = """
            data_dir: \(folder.path)
            server: http://127.0.0.1:9
            plugins:
              recipes: {download_photos: false}
            """
        var options = FerryRuntime.Options()
        options.connectivity = ManualConnectivity(.offline)
        return try await FerryRuntime.open(
            configuration: try FerryConfiguration.parse(yaml, file: "bench.yaml"),
            pluginTypes: [RecipesPlugin.self],
            options: options
        )
    }
}
